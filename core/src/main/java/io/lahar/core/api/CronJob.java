package io.lahar.core.api;

import java.util.List;

/**
 * batch.volcano.sh/v1alpha1 CronJob: a Volcano Job made from {@code spec.jobTemplate} on a cron
 * schedule, as Kubernetes' CronJob makes batch/v1 Jobs.
 */
public record CronJob(String apiVersion, String kind, ObjectMeta metadata, CronJobSpec spec, CronJobStatus status)
        implements Manifest {

    public static final String API_VERSION = "batch.volcano.sh/v1alpha1";
    public static final String KIND = "CronJob";
    /** The annotation on each created job: its scheduled time, RFC 3339 in the CronJob's time zone. */
    public static final String SCHEDULED_TIMESTAMP_ANNOTATION = "volcano.sh/cronjob-scheduled-timestamp";

    public CronJob withSpec(CronJobSpec newSpec) {
        return new CronJob(apiVersion, kind, metadata, newSpec, status);
    }

    public CronJob withMetadata(ObjectMeta newMetadata) {
        return new CronJob(apiVersion, kind, newMetadata, spec, status);
    }

    public CronJob withStatus(CronJobStatus newStatus) {
        return new CronJob(apiVersion, kind, metadata, spec, newStatus);
    }

    /**
     * Volcano's CronJobSpec. Optional values are boxed: null means "not given", which admission
     * defaults (concurrencyPolicy Allow, suspend false, history limits 3 and 1).
     */
    public record CronJobSpec(
            String schedule,
            String timeZone,
            Long startingDeadlineSeconds,
            String concurrencyPolicy,
            Boolean suspend,
            JobTemplateSpec jobTemplate,
            Integer successfulJobsHistoryLimit,
            Integer failedJobsHistoryLimit) {

        public boolean suspended() {
            return Boolean.TRUE.equals(suspend);
        }

        /** The policy; Allow when not given (admission refuses anything else than the three). */
        public ConcurrencyPolicy concurrency() {
            return ConcurrencyPolicy.of(concurrencyPolicy).orElse(ConcurrencyPolicy.Allow);
        }

        public CronJobSpec withTimeZone(String v) {
            return new CronJobSpec(
                    schedule,
                    v,
                    startingDeadlineSeconds,
                    concurrencyPolicy,
                    suspend,
                    jobTemplate,
                    successfulJobsHistoryLimit,
                    failedJobsHistoryLimit);
        }

        public CronJobSpec withConcurrencyPolicy(String v) {
            return new CronJobSpec(
                    schedule,
                    timeZone,
                    startingDeadlineSeconds,
                    v,
                    suspend,
                    jobTemplate,
                    successfulJobsHistoryLimit,
                    failedJobsHistoryLimit);
        }

        public CronJobSpec withSuspend(Boolean v) {
            return new CronJobSpec(
                    schedule,
                    timeZone,
                    startingDeadlineSeconds,
                    concurrencyPolicy,
                    v,
                    jobTemplate,
                    successfulJobsHistoryLimit,
                    failedJobsHistoryLimit);
        }

        public CronJobSpec withJobTemplate(JobTemplateSpec v) {
            return new CronJobSpec(
                    schedule,
                    timeZone,
                    startingDeadlineSeconds,
                    concurrencyPolicy,
                    suspend,
                    v,
                    successfulJobsHistoryLimit,
                    failedJobsHistoryLimit);
        }

        public CronJobSpec withHistoryLimits(Integer successful, Integer failed) {
            return new CronJobSpec(
                    schedule,
                    timeZone,
                    startingDeadlineSeconds,
                    concurrencyPolicy,
                    suspend,
                    jobTemplate,
                    successful,
                    failed);
        }
    }

    /** The Job each run creates: its labels and annotations, and its spec. */
    public record JobTemplateSpec(ObjectMeta metadata, JobSpec spec) {}

    /**
     * Volcano's CronJobStatus: the jobs running now, when a job was last scheduled and when one
     * last succeeded (RFC 3339).
     */
    public record CronJobStatus(List<ObjectReference> active, String lastScheduleTime, String lastSuccessfulTime) {

        public List<ObjectReference> activeOrEmpty() {
            return active == null ? List.of() : active;
        }
    }
}
