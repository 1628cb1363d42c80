package io.lahar.core.scheduling.plugins;

import io.lahar.core.api.GoDuration;
import io.lahar.core.job.plugins.PodLabels;
import io.lahar.core.scheduling.api.TaskInfo;
import io.lahar.core.scheduling.api.TaskStatus;
import io.lahar.core.scheduling.framework.Arguments;
import io.lahar.core.scheduling.framework.Functions.VictimFn;
import io.lahar.core.scheduling.framework.Plugin;
import io.lahar.core.scheduling.framework.Session;
import io.lahar.core.scheduling.framework.SessionTask;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Volcano's cdp plugin (cooldown protection): a pod whose {@code volcano.sh/cooldown-time} (a Go
 * duration; its label, else its annotation) has not passed since it was scheduled is no victim of
 * preempt or reclaim, so an elastic job's pods are not preempted again just after they started.
 * Only a Running pod whose PodScheduled time is known is protected; any other candidate stays one.
 * The cooldown is measured to the snapshot's time: without one, no cooldown has passed (as no SLA
 * wait has for the sla plugin).
 */
public final class Cdp implements Plugin {
    public static final String NAME = "cdp";

    /** Volcano takes no arguments; an argument here is refused as unknown by the configuration. */
    public Cdp(Arguments args) {}

    @Override
    public String name() {
        return NAME;
    }

    /** The pod's {@code volcano.sh/cooldown-time} as written: its label, else its annotation; null without one. */
    public static String cooldownTimeText(Map<String, String> labels, Map<String, String> annotations) {
        String v = labels == null ? null : labels.get(PodLabels.COOLDOWN_TIME);
        if (v == null && annotations != null) v = annotations.get(PodLabels.COOLDOWN_TIME);
        return v;
    }

    /**
     * Volcano's podCooldownTime: the pod's cooldown, empty without one or when it is no Go duration
     * (which Volcano logs and ignores; Lahar's admission refuses it on a Job).
     */
    public static Optional<Duration> cooldownTimeOf(Map<String, String> labels, Map<String, String> annotations) {
        return GoDuration.parse(cooldownTimeText(labels, annotations));
    }

    /** Why a pod's cooldown-time would be ignored (it is no Go duration), else empty. */
    public static Optional<String> cooldownTimeProblem(Map<String, String> labels, Map<String, String> annotations) {
        String text = cooldownTimeText(labels, annotations);
        if (text == null || GoDuration.parse(text).isPresent()) return Optional.empty();
        return Optional.of("not a duration (e.g. 1h2m3s): \"" + text + "\"");
    }

    @Override
    public void onSessionOpen(Session ssn) {
        VictimFn filter = (evictor, candidates) -> {
            List<SessionTask> victims = new ArrayList<>(candidates.size());
            for (SessionTask t : candidates) {
                if (!cooling(t.info(), ssn.now())) victims.add(t);
            }
            return victims;
        };
        ssn.addPreemptableFn(NAME, filter);
        ssn.addReclaimableFn(NAME, filter);
    }

    /** Whether the pod is Running and its cooldown since it was scheduled lasts beyond {@code now} (null: unknown). */
    static boolean cooling(TaskInfo t, Instant now) {
        if (t.cooldownTime() == null || t.scheduledTime() == null || t.status() != TaskStatus.Running) return false;
        return now == null || t.scheduledTime().plus(t.cooldownTime()).isAfter(now);
    }
}
