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
            Draft d = new Draft(this);
            d.timeZone = v;
            return d.done();
        }

        public CronJobSpec withConcurrencyPolicy(String v) {
            Draft d = new Draft(this);
            d.concurrencyPolicy = v;
            return d.done();
        }

        public CronJobSpec withSuspend(Boolean v) {
            Draft d = new Draft(this);
            d.suspend = v;
            return d.done();
        }

        public CronJobSpec withJobTemplate(JobTemplateSpec v) {
            Draft d = new Draft(this);
            d.jobTemplate = v;
            return d.done();
        }

        public CronJobSpec withHistoryLimits(Integer successful, Integer failed) {
            Draft d = new Draft(this);
            d.successfulJobsHistoryLimit = successful;
            d.failedJobsHistoryLimit = failed;
            return d.done();
        }

        /**
         * A changing copy of a spec: each wither above changes one or two of the eight components,
         * so each names only those and this class copies the rest.
         */
        private static final class Draft {
            private final String schedule;
            private String timeZone;
            private final Long startingDeadlineSeconds;
            private String concurrencyPolicy;
            private Boolean suspend;
            private JobTemplateSpec jobTemplate;
            private Integer successfulJobsHistoryLimit;
            private Integer failedJobsHistoryLimit;

            Draft(CronJobSpec s) {
                schedule = s.schedule;
                timeZone = s.timeZone;
                startingDeadlineSeconds = s.startingDeadlineSeconds;
                concurrencyPolicy = s.concurrencyPolicy;
                suspend = s.suspend;
                jobTemplate = s.jobTemplate;
                successfulJobsHistoryLimit = s.successfulJobsHistoryLimit;
                failedJobsHistoryLimit = s.failedJobsHistoryLimit;
            }

            CronJobSpec done() {
                return new CronJobSpec(
                        schedule,
                        timeZone,
                        startingDeadlineSeconds,
                        concurrencyPolicy,
                        suspend,
                        jobTemplate,
                        successfulJobsHistoryLimit,
                        failedJobsHistoryLimit);
            }
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
