package io.lahar.bridge.reconcile;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.lahar.bridge.mapping.VolcanoKinds;
import io.lahar.bridge.mapping.Workloads;
import io.lahar.schema.PodGroupStatus;
import io.lahar.schema.SchedulerDecision;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiConsumer;

/**
 * The scheduler's verdict on another workload's pod group back on its PodGroup CR
 * (docs/decisions/048-other-workloads.md): the decided {@code PodGroupStatus} as the CR's status
 * (phase, conditions, running, succeeded, failed), and an Event when the phase changed or the group
 * is held back for a new reason — a queue that does not exist is {@code Warning Unschedulable}
 * {@code queue "x" not found}. A Lahar Job's pod group gets its status through
 * {@code lahar.pod-groups} instead ({@link PodGroupReconciler}).
 */
public final class WorkloadStatusWriter {

    public enum Outcome {
        UPDATED,
        UNCHANGED,
        /** The CR is gone: nothing to report on. */
        ABSENT
    }

    private final KubernetesClient client;
    private final Retry retry;

    public WorkloadStatusWriter(KubernetesClient client, Retry retry) {
        this.client = client;
        this.retry = retry;
    }

    /** @param decision a {@code PodGroupStatus} about a group keyed {@code namespace/podgroup:<name>} */
    public Outcome apply(SchedulerDecision decision) {
        PodGroupStatus status = (PodGroupStatus) decision.getDecision();
        return write(
                decision.getNamespace(),
                decision.getPodGroup(),
                Workloads.status(status),
                (current, before) -> Workloads.event(current, before, status, decision.getTime())
                        .ifPresent(e -> KubeEvents.createOnce(client, retry, e)));
    }

    /** The status of a CR that cannot be read as a PodGroup (the Event is its refusal's, posted apart). */
    public Outcome refuse(String namespace, String name, String reason, Instant at) {
        return write(namespace, name, Workloads.refusalStatus(reason, at), (current, before) -> {});
    }

    private Outcome write(
            String namespace,
            String name,
            Map<String, Object> wanted,
            BiConsumer<GenericKubernetesResource, Map<String, Object>> written) {
        var resource = client.genericKubernetesResources(VolcanoKinds.POD_GROUPS)
                .inNamespace(namespace)
                .withName(name);
        for (int attempt = 0; attempt < 5; attempt++) {
            GenericKubernetesResource current = retry.call(resource::get);
            if (current == null) return Outcome.ABSENT;
            @SuppressWarnings("unchecked")
            Map<String, Object> before = current.getAdditionalProperties().get("status") instanceof Map<?, ?> m
                    ? new LinkedHashMap<>((Map<String, Object>) m)
                    : null;
            if (Objects.equals(before, wanted)) return Outcome.UNCHANGED;
            current.setAdditionalProperty("status", wanted);
            try {
                retry.call(() -> client.genericKubernetesResources(VolcanoKinds.POD_GROUPS)
                        .inNamespace(namespace)
                        .resource(current)
                        .updateStatus());
            } catch (KubernetesClientException e) {
                if (Retry.isNotFound(e)) return Outcome.ABSENT;
                if (Retry.isConflict(e)) continue;
                throw e;
            }
            written.accept(current, before);
            return Outcome.UPDATED;
        }
        throw new KubernetesClientException(
                "PodGroup " + namespace + "/" + name + ": still conflicting after 5 attempts");
    }
}
