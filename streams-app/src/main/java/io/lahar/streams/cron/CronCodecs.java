package io.lahar.streams.cron;

import io.lahar.core.api.CronJob;
import io.lahar.core.api.Manifests;
import io.lahar.core.cron.CronEvent;
import io.lahar.core.cron.CronJobInfo;
import io.lahar.core.cron.OwnedJob;
import io.lahar.schema.CronJobActiveJob;
import io.lahar.schema.CronJobRun;
import io.lahar.schema.CronJobStatus;
import io.lahar.schema.CronJobStatusRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** The CronJob engine's state as its compacted {@code lahar.cronjob-status} record. */
public final class CronCodecs {

    private CronCodecs() {}

    public static CronJobStatusRecord toStatusRecord(CronJobInfo info) {
        CronJob cronJob = info.cronJob();
        List<CronJobActiveJob> active = new ArrayList<>();
        for (String name : info.active()) {
            OwnedJob j = info.job(name);
            active.add(new CronJobActiveJob(name, j == null ? null : j.uid()));
        }
        List<CronJobRun> jobs = new ArrayList<>();
        for (OwnedJob j : info.jobs()) {
            jobs.add(new CronJobRun(
                    j.name(),
                    Instant.ofEpochMilli(j.scheduledTime()),
                    j.phase() == null ? "Pending" : j.phase().name()));
        }
        List<io.lahar.schema.CronJobEvent> events = new ArrayList<>();
        for (CronEvent e : info.events()) {
            events.add(new io.lahar.schema.CronJobEvent(
                    e.type(), e.reason(), e.message(), Instant.ofEpochMilli(e.time())));
        }
        return CronJobStatusRecord.newBuilder()
                .setNamespace(cronJob.namespace())
                .setName(cronJob.name())
                .setUid(cronJob.metadata().uid())
                .setManifest(Manifests.toJson(cronJob.withStatus(null)))
                .setStatus(
                        new CronJobStatus(active, instant(info.lastScheduleTime()), instant(info.lastSuccessfulTime())))
                .setNextScheduleTime(instant(info.due()))
                .setJobs(jobs)
                .setEvents(events)
                .setTime(Instant.ofEpochMilli(info.time()))
                .build();
    }

    private static Instant instant(Long epochMillis) {
        return epochMillis == null ? null : Instant.ofEpochMilli(epochMillis);
    }
}
