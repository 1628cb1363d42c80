package io.lahar.core.cron;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.lahar.core.api.CronJob;
import java.util.List;
import java.util.Map;

/**
 * One output line of {@code lahar simulate} for a CronJob: the time, the jobs created and deleted
 * during the step, the jobs that exist with their phases, Volcano's status, when the next run is
 * due, the events of the step, and {@code ignored} when the step could not happen.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"step", "time", "created", "deleted", "jobs", "status", "nextScheduleTime", "events", "ignored"})
public record CronStepReport(
        int step,
        String time,
        List<String> created,
        List<String> deleted,
        Map<String, String> jobs,
        CronJob.CronJobStatus status,
        String nextScheduleTime,
        List<String> events,
        String ignored) {}
