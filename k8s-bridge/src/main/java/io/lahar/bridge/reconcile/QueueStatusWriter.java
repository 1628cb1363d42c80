package io.lahar.bridge.reconcile;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.lahar.bridge.mapping.Mirrors;
import io.lahar.bridge.mapping.VolcanoCrs;
import io.lahar.bridge.mapping.VolcanoKinds;
import io.lahar.schema.Queue;
import io.lahar.schema.QueueStatus;

/**
 * Shows every Lahar queue as its Queue CR: a mirrored CR for a queue of lahar.queues that has none
 * (see {@link Mirrors}; its spec follows the record), deleted with the queue (the tombstone), and
 * the scheduler's queue status (lahar.queue-status) on the CR's status, so {@code kubectl get queue
 * -o yaml} shows pending / inqueue / running counts as on Volcano.
 */
public final class QueueStatusWriter {

    private final StatusSubresource status;
    private final CrMirror mirror;

    public QueueStatusWriter(KubernetesClient client, Retry retry) {
        this(client, retry, new MirrorLedger());
    }

    public QueueStatusWriter(KubernetesClient client, Retry retry, MirrorLedger ledger) {
        this.status = new StatusSubresource(client, retry, VolcanoKinds.QUEUES);
        // The status is the scheduler's (lahar.queue-status): the queue record gives a new CR its state only.
        this.mirror = new CrMirror(client, retry, VolcanoKinds.QUEUES, ledger, CrMirror.StatusPolicy.ON_CREATE);
    }

    public synchronized StatusSubresource.Outcome apply(QueueStatus record) {
        return status.write(null, record.getName(), VolcanoCrs.queueStatus(record));
    }

    public synchronized CrMirror.Outcome apply(Queue record) {
        return mirror.apply(Mirrors.queue(record));
    }

    /** The queue is deleted (its tombstone on lahar.queues, keyed by name): so is its CR. */
    public synchronized CrMirror.Outcome deleted(String name) {
        return mirror.delete(null, name);
    }
}
