package io.lahar.bridge.reconcile;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.lahar.bridge.mapping.JobEvents;
import io.lahar.bridge.mapping.Mirrors;
import io.lahar.bridge.mapping.VolcanoKinds;
import io.lahar.schema.JobKey;
import io.lahar.schema.JobStatusRecord;

/**
 * Shows every Lahar job as its Volcano Job CR, so {@code kubectl get vcjob} lists the jobs however
 * they were submitted: the engine's job status onto the CR's status subresource, a mirrored CR for
 * a job that has none (see {@link Mirrors}), the CR deleted with the job (its status tombstone),
 * and each important transition as an Event on the CR ({@link JobEvents}).
 */
public final class JobStatusWriter {

    private final KubernetesClient client;
    private final Retry retry;
    private final CrMirror mirror;

    public JobStatusWriter(KubernetesClient client, Retry retry) {
        this(client, retry, new MirrorLedger());
    }

    public JobStatusWriter(KubernetesClient client, Retry retry, MirrorLedger ledger) {
        this.client = client;
        this.retry = retry;
        this.mirror = new CrMirror(client, retry, VolcanoKinds.JOBS, ledger, CrMirror.StatusPolicy.ALWAYS);
    }

    public synchronized CrMirror.Outcome apply(JobStatusRecord record) {
        return mirror.apply(
                Mirrors.job(record),
                (before, crUid) -> JobEvents.transition(record, before, crUid).ifPresent(this::record));
    }

    /** An Event is created once: one of that name exists already when a status is read again. */
    private void record(Event event) {
        try {
            retry.call(() -> client.v1()
                    .events()
                    .inNamespace(event.getMetadata().getNamespace())
                    .resource(event)
                    .create());
        } catch (KubernetesClientException e) {
            if (!Retry.isConflict(e)) {
                throw e;
            }
        }
    }

    /** The job is deleted (its status tombstone, keyed namespace/name): so is its CR. */
    public synchronized CrMirror.Outcome deleted(String key) {
        JobKey id = keyOf(key);
        return mirror.delete(id.namespace(), id.name());
    }

    static JobKey keyOf(String key) {
        return JobKey.parse(key)
                .orElseThrow(() -> new IllegalArgumentException("key: \"" + key + "\" is not namespace/name"));
    }
}
