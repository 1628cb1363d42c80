package io.lahar.core.cron;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import io.lahar.core.api.CronJob;
import io.lahar.core.api.JobPhase;
import java.util.List;

/**
 * Everything that can happen to a CronJob, as a record: the only way time and the world reach
 * its controller. {@code time} is event time in epoch milliseconds, taken from the record; time
 * only passes with the clock ticks in the log, so a replay creates the same jobs at the same times.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
    @JsonSubTypes.Type(value = CronInput.Submit.class, name = "Submit"),
    @JsonSubTypes.Type(value = CronInput.Update.class, name = "Update"),
    @JsonSubTypes.Type(value = CronInput.Delete.class, name = "Delete"),
    @JsonSubTypes.Type(value = CronInput.Tick.class, name = "Tick"),
    @JsonSubTypes.Type(value = CronInput.JobObserved.class, name = "JobObserved"),
    @JsonSubTypes.Type(value = CronInput.JobRejected.class, name = "JobRejected"),
    @JsonSubTypes.Type(value = CronInput.JobGone.class, name = "JobGone")
})
public sealed interface CronInput {

    long time();

    /** An admitted (defaulted) CronJob is created. */
    record Submit(CronJob cronJob, long time) implements CronInput {
        public Submit {
            requireAdmitted(cronJob);
        }
    }

    /** The admitted CronJob's spec changes (suspend, resume, schedule, template...): later runs use it. */
    record Update(CronJob cronJob, long time) implements CronInput {
        public Update {
            requireAdmitted(cronJob);
        }
    }

    /** The CronJob is deleted: the jobs it owns go with it, as Kubernetes' garbage collector deletes them. */
    record Delete(long time) implements CronInput {}

    /** Time passes: a scheduled time may have come. */
    record Tick(long time) implements CronInput {}

    /**
     * A job the CronJob created reports its phase; {@code lastTransitionTime} is its state's
     * (when it finished, for a finished job), {@code uid} the job's.
     */
    record JobObserved(String job, String uid, JobPhase phase, Long lastTransitionTime, long time)
            implements CronInput {
        public JobObserved {
            if (job == null || job.isEmpty()) {
                throw new IllegalArgumentException("job: the job's name is required");
            }
            if (phase == null) {
                throw new IllegalArgumentException("phase: required");
            }
        }
    }

    /** Job admission refused to create a job the CronJob asked for, with every reason. */
    record JobRejected(String job, List<String> reasons, long time) implements CronInput {
        public JobRejected {
            if (job == null || job.isEmpty()) {
                throw new IllegalArgumentException("job: the job's name is required");
            }
            reasons = reasons == null ? List.of() : List.copyOf(reasons);
        }
    }

    /** A job the CronJob created no longer exists (deleted by someone else, or its TTL). */
    record JobGone(String job, long time) implements CronInput {
        public JobGone {
            if (job == null || job.isEmpty()) {
                throw new IllegalArgumentException("job: the job's name is required");
            }
        }
    }

    private static void requireAdmitted(CronJob cronJob) {
        if (cronJob == null
                || cronJob.spec() == null
                || cronJob.metadata() == null
                || cronJob.metadata().name() == null) {
            throw new IllegalArgumentException("cronJob: an admitted CronJob with a name and a spec is required");
        }
    }
}
