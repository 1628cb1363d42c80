package io.lahar.bridge.reconcile;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.lahar.bridge.mapping.FlowCrs;
import io.lahar.bridge.mapping.VolcanoKinds;
import io.lahar.schema.JobFlowStatusRecord;

/**
 * Writes the engine's JobFlow status (lahar.flow-status) onto the JobFlow CR's status
 * subresource, so {@code kubectl get jobflows} shows the flow's phase and its jobs. A flow
 * submitted over Kafka has no CR: nothing to write.
 */
public final class FlowStatusWriter {

    private final StatusSubresource status;

    public FlowStatusWriter(KubernetesClient client, Retry retry) {
        this.status = new StatusSubresource(client, retry, VolcanoKinds.JOB_FLOWS);
    }

    public synchronized StatusSubresource.Outcome apply(JobFlowStatusRecord record) {
        return status.write(record.getNamespace(), record.getName(), FlowCrs.flowStatus(record));
    }
}
