package io.lahar.bridge.reconcile;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.lahar.bridge.mapping.VolcanoCrs;
import io.lahar.bridge.mapping.VolcanoKinds;
import io.lahar.schema.JobStatusRecord;

/**
 * Writes the engine's job status onto the Volcano Job CR's status subresource, so
 * {@code kubectl get vcjob} shows it. Jobs submitted over Kafka have no CR: nothing to write.
 */
public final class JobStatusWriter {

    private final StatusSubresource status;

    public JobStatusWriter(KubernetesClient client, Retry retry) {
        this.status = new StatusSubresource(client, retry, VolcanoKinds.JOBS);
    }

    public synchronized StatusSubresource.Outcome apply(JobStatusRecord record) {
        return status.write(record.getNamespace(), record.getName(), VolcanoCrs.jobStatus(record));
    }
}
