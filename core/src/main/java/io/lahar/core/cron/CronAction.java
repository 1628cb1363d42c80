package io.lahar.core.cron;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import io.lahar.core.api.Job;

/**
 * What the CronJob controller asks of the world. The streams app (or the simulator) carries
 * these out through job admission; the controller learns the result only from later
 * {@link CronInput}s.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
    @JsonSubTypes.Type(value = CronAction.CreateJob.class, name = "CreateJob"),
    @JsonSubTypes.Type(value = CronAction.DeleteJob.class, name = "DeleteJob")
})
public sealed interface CronAction {

    /** Create the job of a scheduled time: the template, named and owned by the CronJob. */
    record CreateJob(Job job, long scheduledTime) implements CronAction {}

    /** Delete a job the CronJob created (history limits, Replace, the CronJob deleted). */
    record DeleteJob(String name, String reason) implements CronAction {}
}
