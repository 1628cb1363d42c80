package io.lahar.cli.job;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/** {@code lahar job view NAME} without {@code -o}: the job's spec and status in a few lines, its tasks, its pods, its latest transitions. */
public final class JobDescription {

    private JobDescription() {}

    public static String describe(JsonNode job) {
        JsonNode spec = job.path("spec");
        JsonNode status = job.path("status");
        JsonNode state = status.path("state");
        Description description = Description.of(job)
                .field("Queue:", spec.path("queue").asText(""))
                .field("Scheduler:", spec.path("schedulerName").asText(""))
                .field("Phase:", state.path("phase").asText(""));
        if (!state.path("reason").asText("").isEmpty()) {
            description.field("Reason:", state.path("reason").asText());
        }
        if (!state.path("message").asText("").isEmpty()) {
            description.field("Message:", state.path("message").asText());
        }
        description
                .field(
                        "Min Available:",
                        status.path("minAvailable")
                                .asText(spec.path("minAvailable").asText("")))
                .field(
                        "Retry Count:",
                        status.path("retryCount").asInt(0) + " of "
                                + spec.path("maxRetry").asText("3"))
                .field(
                        "Pods:",
                        "Pending " + status.path("pending").asInt(0) + ", Running "
                                + status.path("running").asInt(0)
                                + ", Succeeded " + status.path("succeeded").asInt(0) + ", Failed "
                                + status.path("failed").asInt(0)
                                + ", Unknown " + status.path("unknown").asInt(0));
        List<List<String>> tasks = new ArrayList<>();
        List<String> header = new ArrayList<>(List.of("Task", "Replicas", "Min"));
        header.addAll(TASK_PHASES);
        tasks.add(header);
        for (JsonNode task : spec.path("tasks")) {
            String name = task.path("name").asText("");
            List<String> row = new ArrayList<>(List.of(
                    name,
                    task.path("replicas").asText("0"),
                    task.path("minAvailable").asText(task.path("replicas").asText("0"))));
            JsonNode counts = status.path("taskStatusCount").path(name).path("phase");
            TASK_PHASES.forEach(p -> row.add(Integer.toString(counts.path(p).asInt(0))));
            tasks.add(row);
        }
        return description.table(null, tasks).text();
    }

    /** The pod phases of a task's row, as taskStatusCount counts them. */
    static final List<String> TASK_PHASES = List.of("Pending", "Running", "Succeeded", "Failed", "Unknown");

    /** The most pods a description lists: a job may have thousands, a terminal shows a screenful. */
    static final int PODS_SHOWN = 100;

    /**
     * The job's pods (the API's {@code /pods} answer), as {@code kubectl get pods -o wide} shows
     * them: phase, node, restarts, exit code; at most {@link #PODS_SHOWN}, the rest counted.
     */
    public static String pods(JsonNode list) {
        List<List<String>> rows = new ArrayList<>();
        rows.add(List.of("Pod", "Task", "Phase", "Node", "Restarts", "Exit Code", "Version"));
        int count = 0;
        for (JsonNode p : list) {
            if (++count > PODS_SHOWN) {
                continue;
            }
            String phase = p.path("phase").asText("");
            rows.add(List.of(
                    p.path("name").asText(""),
                    p.path("task").asText("") + "[" + p.path("index").asInt() + "]",
                    p.path("terminating").asBoolean() ? phase + " (terminating)" : phase,
                    p.path("node").asText("<none>"),
                    Integer.toString(p.path("restarts").asInt()),
                    p.path("exitCode").isNumber() ? p.path("exitCode").asText() : "",
                    p.path("version").asText("")));
        }
        if (count == 0) {
            return "\nPods: none\n";
        }
        String more = count > PODS_SHOWN ? "... and " + (count - PODS_SHOWN) + " more\n" : "";
        return "\nPods (" + count + "):\n" + JobTable.render(rows) + more;
    }

    /**
     * The job's latest transitions (the API's {@code /transitions} answer, oldest first), as the
     * end of its description: what {@code kubectl describe} shows as Events.
     */
    public static String transitions(JsonNode list) {
        List<List<String>> rows = new ArrayList<>();
        rows.add(List.of("Time", "From", "To", "Reason", "Message"));
        for (JsonNode t : list) {
            rows.add(List.of(
                    t.path("time").asText(""),
                    t.path("from").asText("(new)"),
                    t.path("to").asText(""),
                    t.path("reason").asText(""),
                    t.path("message").asText("")));
        }
        return rows.size() == 1
                ? "\nTransitions: none yet\n"
                : "\nTransitions (newest last):\n" + JobTable.render(rows);
    }
}
