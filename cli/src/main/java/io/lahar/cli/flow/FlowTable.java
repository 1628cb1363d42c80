package io.lahar.cli.flow;

import com.fasterxml.jackson.databind.JsonNode;
import io.lahar.cli.job.JobTable;
import io.lahar.cli.resource.Age;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code lahar flow list}: vcctl jobflow list's Name, Namespace, Phase and Age, with the job
 * counts of the flow's status between Phase and Age (the sizes of its pending, running,
 * completed and failed lists), so a listing shows how far each flow has come.
 */
public final class FlowTable {

    static final List<String> HEADERS =
            List.of("Name", "Namespace", "Phase", "Jobs", "Pending", "Running", "Completed", "Failed", "Age");

    private FlowTable() {}

    /** The table of {@code rows} (GET /api/v1/jobflows); {@code No resources found} when there are none. */
    public static String format(JsonNode rows, Instant now) {
        return JobTable.rows(rows, HEADERS, row -> {
            List<String> cells = new ArrayList<>();
            cells.add(row.path("name").asText(""));
            cells.add(row.path("namespace").asText(""));
            // A flow the controller has not seen yet has no phase: Volcano's printer leaves it empty too.
            cells.add(row.path("phase").asText(""));
            for (String count : List.of("jobs", "pendingJobs", "runningJobs", "completedJobs", "failedJobs")) {
                cells.add(Integer.toString(row.path(count).asInt(0)));
            }
            cells.add(Age.since(row.path("creationTimestamp").asText(""), now));
            return cells;
        });
    }
}
