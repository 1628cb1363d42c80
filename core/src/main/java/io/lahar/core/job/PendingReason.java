package io.lahar.core.job;

import io.lahar.core.api.Job;
import io.lahar.core.api.JobPhase;
import io.lahar.core.api.PodGroupPhase;

/** The reason a Pending job gives while it waits, from what its pod group says. */
final class PendingReason {

    /** Volcano's pod group condition type for a gang the scheduler could not place. */
    private static final String UNSCHEDULABLE = "Unschedulable";

    private PendingReason() {}

    /**
     * A Pending job says why: the scheduler's Unschedulable condition on its pod group becomes the
     * job's state reason and message (the phase and its transition time stay), so the job status
     * answers "why is my job pending" without a look at the pod group. Without a condition the
     * reason names what the job waits for once its gang is admitted — its pods to be created, then
     * to run — never a phase it is not in, and never a stale "unschedulable".
     */
    static void explain(Job job, RunStatus status, Input.PodGroupObserved g, PodGroupPhase old) {
        if (status.phase() != JobPhase.Pending) {
            return;
        }
        String group = "pod group " + PodGroups.name(job) + " is " + g.phase() + ": ";
        if (g.message() != null) {
            status.explain(g.reason() != null ? g.reason() : UNSCHEDULABLE, group + g.message());
            return;
        }
        PendingWait wait = switch (g.phase()) {
            case Inqueue -> new PendingWait("CreatingPods", "admitted to its queue, its pods are being created");
            case Running ->
                new PendingWait(
                        "StartingPods", "its gang is bound, waiting for " + status.minAvailable() + " pods to run");
            default -> null;
        };
        if (wait != null && (old != g.phase() || !wait.reason().equals(status.reason()))) {
            status.explain(wait.reason(), group + wait.detail());
        }
    }

    private record PendingWait(String reason, String detail) {}
}
