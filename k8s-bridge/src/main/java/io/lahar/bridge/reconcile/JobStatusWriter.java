package io.lahar.bridge.reconcile;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.lahar.bridge.mapping.VolcanoCrs;
import io.lahar.bridge.mapping.VolcanoKinds;
import io.lahar.schema.JobStatusRecord;

import java.util.Map;
import java.util.Objects;

/**
 * Writes the engine's job status onto the Volcano Job CR's status subresource, so
 * {@code kubectl get vcjob} shows it. Jobs submitted over Kafka have no CR: nothing to write.
 */
public final class JobStatusWriter {

    public enum Outcome { WRITTEN, UNCHANGED, NO_CR }

    private final KubernetesClient client;
    private final Retry retry;

    public JobStatusWriter(KubernetesClient client, Retry retry) {
        this.client = client;
        this.retry = retry;
    }

    public synchronized Outcome apply(JobStatusRecord record) {
        Map<String, Object> status = VolcanoCrs.jobStatus(record);
        var resource = client.genericKubernetesResources(VolcanoKinds.JOBS).inNamespace(record.getNamespace()).withName(record.getName());
        for (int attempt = 0; attempt < 5; attempt++) {
            GenericKubernetesResource cr;
            try {
                cr = retry.call(resource::get);
            } catch (KubernetesClientException e) {
                if (Retry.isNotFound(e)) {
                    return Outcome.NO_CR;
                }
                throw e;
            }
            if (cr == null) {
                return Outcome.NO_CR;
            }
            if (Objects.equals(cr.getAdditionalProperties().get("status"), status)) {
                return Outcome.UNCHANGED;
            }
            cr.setAdditionalProperty("status", status);
            try {
                retry.call(() -> client.genericKubernetesResources(VolcanoKinds.JOBS).inNamespace(record.getNamespace())
                        .resource(cr).updateStatus());
                return Outcome.WRITTEN;
            } catch (KubernetesClientException e) {
                if (Retry.isNotFound(e)) {
                    return Outcome.NO_CR;
                }
                if (!Retry.isConflict(e)) {
                    throw e;
                }
            }
        }
        throw new KubernetesClientException("Job " + record.getNamespace() + "/" + record.getName()
                + ": status still conflicting after 5 attempts");
    }
}
