package io.lahar.streams.cron;

import io.lahar.core.cron.CronJobInfo;
import io.lahar.streams.flow.FlowVerdict;
import java.util.List;

/**
 * What the {@code cronjobs} store keeps per CronJob key: the controller's state (null when no
 * CronJob of that name was ever created) and the recent command answers, kept after a deletion so
 * a retried delete is answered alike.
 */
public record CronEntry(CronJobInfo info, List<FlowVerdict> recent) {

    public CronEntry {
        recent = recent == null ? List.of() : List.copyOf(recent);
    }

    public static CronEntry empty() {
        return new CronEntry(null, List.of());
    }

    /** A CronJob of this name exists: created and not deleted. */
    public boolean live() {
        return info != null && info.live();
    }

    CronEntry withInfo(CronJobInfo next) {
        return new CronEntry(next, recent);
    }

    CronEntry remember(FlowVerdict verdict) {
        return new CronEntry(info, FlowVerdict.remember(recent, verdict));
    }
}
