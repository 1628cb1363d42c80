package io.lahar.core.job;

import io.lahar.core.api.Action;
import io.lahar.core.api.Event;
import io.lahar.core.api.GoDuration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A job's timers as one controller run changes them: Volcano's delayed actions (a policy with a
 * {@code timeout}) armed, cancelled when the pod's news or an executed action makes them moot, and
 * taken when due; and the TTL of a finished job. The stored list is kept as it is and copied only
 * when the run changes it: most inputs change none.
 */
final class DelayedActions {

    private List<Timer> timers;
    private boolean owned;

    DelayedActions(List<Timer> stored) {
        this.timers = stored;
    }

    /** The timers in the order they were armed. */
    List<Timer> timers() {
        return timers;
    }

    void clear() {
        own().clear();
    }

    /**
     * A policy with a timeout: remember it; it fires on a later input unless the pod moves on. A
     * pod has one delayed action at a time: the same action again keeps the one armed, another
     * replaces it.
     */
    void arm(Request r, PolicyMatch m, long now, int version) {
        for (int i = 0; i < timers.size(); i++) {
            if (timers.get(i) instanceof Timer.DelayedAction d && Objects.equals(d.pod(), r.pod())) {
                if (d.action() == m.action()) {
                    return;
                }
                own().remove(i);
                break;
            }
        }
        String cause = (r.cause() == null ? r.event() : r.cause()) + " for "
                + GoDuration.format(m.delay().toMillis());
        own().add(new Timer.DelayedAction(
                now + m.delay().toMillis(), r.event(), m.action(), r.task(), r.pod(), version, m.policy(), cause));
    }

    /**
     * A pod's new phase makes some of its delayed actions moot: leaving Pending cancels a
     * PodPending timeout, running again cancels a PodFailed or PodEvicted one.
     */
    void cancelMoot(Request r) {
        if (!r.aboutPod() || r.event() == Event.POD_PENDING) {
            return;
        }
        remove(t -> t instanceof Timer.DelayedAction d
                && r.pod().equals(d.pod())
                && (d.event() == Event.POD_PENDING
                        || (r.event() == Event.POD_RUNNING
                                && (d.event() == Event.POD_FAILED || d.event() == Event.POD_EVICTED))));
    }

    /**
     * After an action ran, delayed actions of the same scope are moot (Volcano's
     * cleanupDelayActions); a sync cancels none. A partition is its task's: Volcano compares the
     * partition id alone, which would let one task's restart cancel another task's partition of
     * the same number.
     *
     * @param partitionOf the partition of a pod of the job, null when it has none
     */
    void cleanup(Action action, String task, String pod, Function<String, Integer> partitionOf) {
        if (action == Action.SYNC_JOB) {
            return;
        }
        remove(t -> t instanceof Timer.DelayedAction d
                && switch (action) {
                    case RESTART_TASK -> Objects.equals(d.task(), task) && d.action() == Action.RESTART_TASK;
                    case RESTART_POD -> Objects.equals(d.pod(), pod) && d.action() == Action.RESTART_POD;
                    case RESTART_PARTITION ->
                        d.action() == Action.RESTART_PARTITION
                                && Objects.equals(d.task(), task)
                                && Objects.equals(partitionOf.apply(d.pod()), partitionOf.apply(pod));
                    default -> !TARGETED.contains(d.action());
                });
    }

    /** The actions on part of a job, whose delayed actions a job-wide action leaves armed. */
    private static final java.util.Set<Action> TARGETED =
            java.util.EnumSet.of(Action.RESTART_TASK, Action.RESTART_POD, Action.RESTART_PARTITION);

    /** The earliest timer due at {@code now}, taken out; null when none is due. */
    Timer takeDue(long now) {
        int due = -1;
        for (int i = 0; i < timers.size(); i++) {
            if (timers.get(i).due() <= now
                    && (due < 0 || timers.get(i).due() < timers.get(due).due())) {
                due = i;
            }
        }
        return due < 0 ? null : own().remove(due);
    }

    /**
     * Whether a delayed action that came due still applies: it was armed in the job's current
     * version, and a PodPending timeout only while its pod is still pending and not being deleted.
     */
    static boolean stillApplies(Timer.DelayedAction d, int version, JobPod pod) {
        if (d.version() != version) {
            return false;
        }
        return d.event() != Event.POD_PENDING || (pod != null && pod.phase() == PodPhase.Pending && !pod.terminating());
    }

    /** ttlSecondsAfterFinished: the job is deleted at {@code due}, unless a TTL is armed already. */
    void armTtl(long due) {
        for (Timer t : timers) {
            if (t instanceof Timer.TtlAfterFinished) {
                return;
            }
        }
        own().add(new Timer.TtlAfterFinished(due));
    }

    /** Removes the timers {@code which} matches, copying them only if one does. */
    private void remove(Predicate<Timer> which) {
        for (Timer t : timers) {
            if (which.test(t)) {
                own().removeIf(which);
                return;
            }
        }
    }

    private List<Timer> own() {
        if (!owned) {
            timers = new ArrayList<>(timers);
            owned = true;
        }
        return timers;
    }
}
