package io.lahar.bridge.reconcile;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.lahar.bridge.mapping.VolcanoCrs;
import io.lahar.bridge.mapping.VolcanoKinds;
import io.lahar.schema.QueueStatus;

/**
 * Writes the scheduler's queue status (lahar.queue-status) onto the Queue CR's status, so
 * {@code kubectl get queue -o yaml} shows pending / inqueue / running counts as on Volcano. A queue
 * created over Kafka has no CR: nothing to write.
 */
public final class QueueStatusWriter {

    private final StatusSubresource status;

    public QueueStatusWriter(KubernetesClient client, Retry retry) {
        this.status = new StatusSubresource(client, retry, VolcanoKinds.QUEUES);
    }

    public synchronized StatusSubresource.Outcome apply(QueueStatus record) {
        return status.write(null, record.getName(), VolcanoCrs.queueStatus(record));
    }
}
