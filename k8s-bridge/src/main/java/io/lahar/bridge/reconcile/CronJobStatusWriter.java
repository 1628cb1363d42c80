package io.lahar.bridge.reconcile;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.lahar.bridge.mapping.CronJobCrs;
import io.lahar.bridge.mapping.VolcanoKinds;
import io.lahar.core.util.LruMap;
import io.lahar.schema.CronJobEvent;
import io.lahar.schema.CronJobStatusRecord;
import java.util.Map;

/**
 * Writes the engine's CronJob state (lahar.cronjob-status) onto the CronJob CR: Volcano's status
 * on the status subresource, so {@code kubectl get cronjobs} shows its last schedule and active
 * jobs, and each new event of its controller as a Kubernetes Event (a refused job's reasons, a
 * skipped run, ...). A CronJob created over Kafka has no CR: nothing to write.
 */
public final class CronJobStatusWriter {

    /** How many CronJobs the writer remembers the newest event written of; a forgotten one re-creates existing events (409, ignored). */
    private static final int REMEMBERED = 10_000;

    private final KubernetesClient client;
    private final Retry retry;
    private final StatusSubresource status;
    private final Map<String, Long> newestEvent = new LruMap<>(REMEMBERED);

    public CronJobStatusWriter(KubernetesClient client, Retry retry) {
        this.client = client;
        this.retry = retry;
        this.status = new StatusSubresource(client, retry, VolcanoKinds.CRON_JOBS);
    }

    public synchronized StatusSubresource.Outcome apply(CronJobStatusRecord record) {
        StatusSubresource.Outcome outcome =
                status.write(record.getNamespace(), record.getName(), CronJobCrs.cronJobStatus(record));
        if (outcome != StatusSubresource.Outcome.NO_CR) {
            events(record);
        }
        return outcome;
    }

    private void events(CronJobStatusRecord record) {
        String key = record.getNamespace() + "/" + record.getName();
        long newest = newestEvent.getOrDefault(key, Long.MIN_VALUE);
        for (CronJobEvent e : record.getEvents()) {
            long time = e.getTime().toEpochMilli();
            if (time < newest) {
                continue;
            }
            KubeEvents.createOnce(client, retry, CronJobCrs.event(record, e, record.getUid()));
            newest = Math.max(newest, time);
        }
        newestEvent.put(key, newest);
    }
}
