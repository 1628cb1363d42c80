package io.lahar.bridge.reconcile;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.lahar.bridge.mapping.VolcanoKinds;
import io.lahar.bridge.mapping.Workloads;
import io.lahar.schema.PodGroupStatus;
import io.lahar.schema.SchedulerDecision;
import java.time.Instant;

/**
 * The scheduler's verdict on another workload's pod group back on its PodGroup CR
 * (docs/decisions/048-other-workloads.md): the decided {@code PodGroupStatus} as the CR's status
 * (phase, conditions, running, succeeded, failed), and an Event when the phase changed or the group
 * is held back for a new reason — a queue that does not exist is {@code Warning Unschedulable}
 * {@code queue "x" not found}. A Lahar Job's pod group gets its status through
 * {@code lahar.pod-groups} instead ({@link PodGroupReconciler}).
 */
public final class WorkloadStatusWriter {

    private final KubernetesClient client;
    private final Retry retry;
    private final StatusSubresource status;

    public WorkloadStatusWriter(KubernetesClient client, Retry retry) {
        this.client = client;
        this.retry = retry;
        this.status = new StatusSubresource(client, retry, VolcanoKinds.POD_GROUPS);
    }

    /** @param decision a {@code PodGroupStatus} about a group keyed {@code namespace/podgroup:<name>} */
    public StatusSubresource.Outcome apply(SchedulerDecision decision) {
        PodGroupStatus decided = (PodGroupStatus) decision.getDecision();
        return status.write(
                decision.getNamespace(),
                decision.getPodGroup(),
                Workloads.status(decided),
                (current, before) -> Workloads.event(current, before, decided, decision.getTime())
                        .ifPresent(e -> KubeEvents.createOnce(client, retry, e)));
    }

    /** The status of a CR that cannot be read as a PodGroup (the Event is its refusal's, posted apart). */
    public StatusSubresource.Outcome refuse(String namespace, String name, String reason, Instant at) {
        return status.write(namespace, name, Workloads.refusalStatus(reason, at));
    }
}
