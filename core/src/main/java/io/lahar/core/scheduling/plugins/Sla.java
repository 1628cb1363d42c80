package io.lahar.core.scheduling.plugins;

import io.lahar.core.api.GoDuration;
import io.lahar.core.scheduling.framework.Arguments;
import io.lahar.core.scheduling.framework.Functions.Vote;
import io.lahar.core.scheduling.framework.Plugin;
import io.lahar.core.scheduling.framework.Session;
import io.lahar.core.scheduling.framework.SessionJob;
import java.time.Duration;
import java.time.Instant;

/**
 * Volcano's sla plugin: a pod group waits at most its {@code sla-waiting-time} (its own annotation,
 * else the plugin's argument, a Go duration such as {@code 1h30m}; without either it has no SLA).
 * Jobs with an SLA go first, the nearest deadline (creation plus waiting time) first; once a job has
 * waited that long it is permitted to enqueue (whatever a later tier's gates say) and to be
 * pipelined (its allocations kept though its gang is not ready). The wait is measured to the
 * snapshot's time: without one, no job has waited long enough.
 */
public final class Sla implements Plugin {
    public static final String NAME = "sla";
    /** The argument, and the pod group annotation, that give the waiting time. */
    public static final String WAITING_TIME = "sla-waiting-time";

    private final Duration waitingTime;

    /**
     * A pod group's own waiting time, from its {@code sla-waiting-time} annotation (a Job's, which
     * Volcano copies onto its PodGroup): empty without one.
     *
     * @throws IllegalArgumentException when the annotation is no positive Go duration
     */
    public static java.util.Optional<Duration> waitingTimeOf(java.util.Map<String, String> annotations) {
        String text = annotations == null ? null : annotations.get(WAITING_TIME);
        if (text == null) {
            return java.util.Optional.empty();
        }
        Duration d = GoDuration.parse(text).orElse(null);
        if (d == null || d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException("not a positive duration (e.g. 1h2m3s): \"" + text + "\"");
        }
        return java.util.Optional.of(d);
    }

    public Sla(Arguments args) {
        String text = args.getString(WAITING_TIME, null);
        if (text == null) {
            waitingTime = null;
            return;
        }
        Duration d = GoDuration.parse(text)
                .orElseThrow(() -> new IllegalArgumentException(
                        "argument " + WAITING_TIME + ": not a duration (e.g. 1h2m3s), got \"" + text + "\""));
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException("argument " + WAITING_TIME + ": must be positive, got \"" + text + "\"");
        }
        waitingTime = d;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void onSessionOpen(Session ssn) {
        ssn.addJobOrderFn(NAME, (l, r) -> {
            Instant ld = deadline(l);
            Instant rd = deadline(r);
            if (ld == null) return rd == null ? 0 : 1;
            if (rd == null) return -1;
            return ld.compareTo(rd);
        });
        ssn.addJobEnqueueableFn(NAME, j -> waited(ssn, j) ? Vote.PERMIT : Vote.ABSTAIN);
        ssn.addJobPipelinedFn(NAME, j -> waited(ssn, j) ? Vote.PERMIT : Vote.ABSTAIN);
    }

    private Duration waitingTime(SessionJob j) {
        return j.info().slaWaitingTime() != null ? j.info().slaWaitingTime() : waitingTime;
    }

    /** Creation plus waiting time; null without an SLA. A job of unknown creation is as old as Kubernetes' zero time. */
    private Instant deadline(SessionJob j) {
        Duration w = waitingTime(j);
        if (w == null) return null;
        Instant created =
                j.info().creationTime() == null ? Instant.MIN : j.info().creationTime();
        return created.equals(Instant.MIN) ? Instant.MIN : created.plus(w);
    }

    private boolean waited(Session ssn, SessionJob j) {
        Instant deadline = deadline(j);
        return deadline != null && ssn.now() != null && !ssn.now().isBefore(deadline);
    }
}
