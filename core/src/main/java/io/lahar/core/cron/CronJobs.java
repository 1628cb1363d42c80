package io.lahar.core.cron;

import io.lahar.core.api.CronJob;
import io.lahar.core.api.Job;
import io.lahar.core.api.ObjectMeta;
import io.lahar.core.api.OwnerReference;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The jobs a CronJob makes: their names, and the Job of a scheduled time (Volcano's getJobFromTemplate). */
public final class CronJobs {

    /** Go's time.RFC3339: seconds, and {@code Z} or {@code ±hh:mm}. */
    private static final DateTimeFormatter RFC3339 = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ssXXX");

    private CronJobs() {}

    /**
     * {@code <cronjob>-<scheduled time in minutes since the epoch>}: deterministic, so one scheduled
     * time never makes two jobs.
     */
    public static String jobName(String cronJob, long scheduledTime) {
        return cronJob + "-" + Math.floorDiv(Math.floorDiv(scheduledTime, 1000), 60);
    }

    /**
     * The CronJob whose job {@code job} is, from its controller owner reference; empty when the job
     * is no CronJob's. The uid tells incarnations of a CronJob of the same name apart.
     */
    public static Optional<OwnerReference> owner(Job job) {
        if (job.metadata() == null || job.metadata().ownerReferences() == null) {
            return Optional.empty();
        }
        return job.metadata().ownerReferences().stream()
                .filter(r -> r != null
                        && Boolean.TRUE.equals(r.controller())
                        && CronJob.KIND.equals(r.kind())
                        && r.apiVersion() != null
                        && r.apiVersion().startsWith("batch.volcano.sh/")
                        && r.name() != null)
                .findFirst();
    }

    /**
     * What the API server adds to a created CronJob: its namespace, a uid and the creation time
     * (epoch ms), which the controller counts missed schedules from; status is not an input.
     */
    public static CronJob stamp(CronJob c, String namespace, String uid, long createdAt) {
        ObjectMeta m = c.metadata();
        return new CronJob(
                c.apiVersion(),
                c.kind(),
                new ObjectMeta(
                        m.name(),
                        m.generateName(),
                        namespace,
                        uid,
                        m.resourceVersion(),
                        m.generation(),
                        Instant.ofEpochMilli(createdAt).toString(),
                        null,
                        m.labels(),
                        m.annotations(),
                        m.ownerReferences(),
                        m.finalizers()),
                c.spec(),
                null);
    }

    /** The zone of the CronJob's {@code timeZone} (UTC when not set); empty when it names no zone. */
    public static Optional<ZoneId> zone(CronJob cronJob) {
        String tz = cronJob.spec().timeZone();
        return tz == null ? Optional.of(ZoneOffset.UTC) : Zones.load(tz);
    }

    /**
     * The job of {@code scheduledTime}: the template's labels, annotations and spec, named by
     * {@link #jobName}, in the CronJob's namespace, controlled by the CronJob, and annotated with
     * its scheduled time in the CronJob's time zone.
     */
    public static Job fromTemplate(CronJob cronJob, long scheduledTime) {
        CronJob.JobTemplateSpec template = cronJob.spec().jobTemplate();
        ObjectMeta meta = template == null ? null : template.metadata();
        Map<String, String> labels = meta == null || meta.labels() == null ? null : new LinkedHashMap<>(meta.labels());
        Map<String, String> annotations = new LinkedHashMap<>(meta == null ? Map.of() : meta.annotationsOrEmpty());
        ZoneId zone = zone(cronJob).orElse(ZoneOffset.UTC);
        annotations.put(
                CronJob.SCHEDULED_TIMESTAMP_ANNOTATION,
                RFC3339.format(Instant.ofEpochMilli(scheduledTime).atZone(zone)));
        OwnerReference owner = new OwnerReference(
                CronJob.API_VERSION,
                CronJob.KIND,
                cronJob.name(),
                cronJob.metadata().uid(),
                true,
                true);
        ObjectMeta jobMeta = new ObjectMeta(
                jobName(cronJob.name(), scheduledTime),
                null,
                cronJob.namespace(),
                null,
                null,
                null,
                null,
                null,
                labels,
                annotations,
                List.of(owner),
                null);
        return new Job(Job.API_VERSION, Job.KIND, jobMeta, template == null ? null : template.spec(), null);
    }
}
