package io.lahar.cli.cronjob;

import com.fasterxml.jackson.databind.JsonNode;
import io.lahar.cli.job.JobTable;
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
        JsonNode meta = cronJob.path("metadata");
        JsonNode spec = cronJob.path("spec");
        JsonNode status = cronJob.path("status");
        List<List<String>> fields = new ArrayList<>();
        fields.add(List.of("Name:", meta.path("name").asText("")));
        fields.add(List.of("Namespace:", meta.path("namespace").asText("")));
        fields.add(List.of("Creation:", meta.path("creationTimestamp").asText("")));
        fields.add(List.of("Schedule:", spec.path("schedule").asText("")));
        fields.add(List.of("Time Zone:", spec.path("timeZone").asText(NONE)));
        fields.add(List.of("Concurrency Policy:", spec.path("concurrencyPolicy").asText("")));
        fields.add(List.of("Suspend:", spec.path("suspend").asText("false")));
        fields.add(List.of(
                "Starting Deadline Seconds:",
                spec.path("startingDeadlineSeconds").asText(NONE)));
        fields.add(List.of(
                "Successful Job History Limit:",
                spec.path("successfulJobsHistoryLimit").asText("")));
        fields.add(List.of(
                "Failed Job History Limit:", spec.path("failedJobsHistoryLimit").asText("")));
        List<String> active = new ArrayList<>();
        status.path("active").forEach(a -> active.add(a.path("name").asText("")));
        fields.add(List.of("Active Jobs:", active.isEmpty() ? NONE : String.join(", ", active)));
        fields.add(
                List.of("Last Schedule Time:", status.path("lastScheduleTime").asText(NONE)));
        fields.add(List.of(
                "Last Successful Time:", status.path("lastSuccessfulTime").asText(NONE)));
        fields.add(
                List.of("Next Schedule Time:", status.path("nextScheduleTime").asText(NONE)));
        StringBuilder out = new StringBuilder(JobTable.render(fields));
        List<List<String>> jobs = new ArrayList<>();
        jobs.add(List.of("Job", "Scheduled", "Phase"));
        status.path("jobs")
                .forEach(j -> jobs.add(List.of(
                        j.path("name").asText(""),
                        j.path("scheduledTime").asText(""),
                        j.path("phase").asText(""))));
        if (jobs.size() > 1) {
            out.append('\n').append(JobTable.render(jobs));
        }
        List<List<String>> events = new ArrayList<>();
        events.add(List.of("Type", "Reason", "Time", "Message"));
        status.path("events")
                .forEach(e -> events.add(List.of(
                        e.path("type").asText(""),
                        e.path("reason").asText(""),
                        e.path("time").asText(""),
                        e.path("message").asText(""))));
        if (events.size() > 1) {
            out.append("\nEvents:\n").append(JobTable.render(events));
        }
        return out.toString();
    }
}
