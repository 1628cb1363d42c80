package io.lahar.cli.cronjob;

import com.fasterxml.jackson.databind.JsonNode;
import io.lahar.cli.job.Description;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code lahar cronjob view NAME} without {@code -o}: the CronJob in a few lines (as
 * {@code kubectl describe cronjob}), then the jobs it created that exist, then its latest events.
 */
public final class CronJobDescription {

    private static final String NONE = "<none>";

    private CronJobDescription() {}

    public static String describe(JsonNode cronJob) {
        JsonNode spec = cronJob.path("spec");
        JsonNode status = cronJob.path("status");
        List<String> active = new ArrayList<>();
        status.path("active").forEach(a -> active.add(a.path("name").asText("")));
        List<List<String>> jobs = new ArrayList<>();
        jobs.add(List.of("Job", "Scheduled", "Phase"));
        status.path("jobs")
                .forEach(j -> jobs.add(List.of(
                        j.path("name").asText(""),
                        j.path("scheduledTime").asText(""),
                        j.path("phase").asText(""))));
        List<List<String>> events = new ArrayList<>();
        events.add(List.of("Type", "Reason", "Time", "Message"));
        status.path("events")
                .forEach(e -> events.add(List.of(
                        e.path("type").asText(""),
                        e.path("reason").asText(""),
                        e.path("time").asText(""),
                        e.path("message").asText(""))));
        return Description.of(cronJob)
                .field("Schedule:", spec.path("schedule").asText(""))
                .field("Time Zone:", spec.path("timeZone").asText(NONE))
                .field("Concurrency Policy:", spec.path("concurrencyPolicy").asText(""))
                .field("Suspend:", spec.path("suspend").asText("false"))
                .field(
                        "Starting Deadline Seconds:",
                        spec.path("startingDeadlineSeconds").asText(NONE))
                .field(
                        "Successful Job History Limit:",
                        spec.path("successfulJobsHistoryLimit").asText(""))
                .field(
                        "Failed Job History Limit:",
                        spec.path("failedJobsHistoryLimit").asText(""))
                .field("Active Jobs:", active.isEmpty() ? NONE : String.join(", ", active))
                .field("Last Schedule Time:", status.path("lastScheduleTime").asText(NONE))
                .field(
                        "Last Successful Time:",
                        status.path("lastSuccessfulTime").asText(NONE))
                .field("Next Schedule Time:", status.path("nextScheduleTime").asText(NONE))
                .table(null, jobs)
                .table("Events", events)
                .text();
    }
}
