package io.lahar.cli.flow;

import com.fasterxml.jackson.databind.JsonNode;
import io.lahar.cli.resource.ResourceTable;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code lahar flow list}: vcctl jobflow list's Name, Namespace, Phase and Age, with the job
 * counts of the flow's status between Phase and Age (the sizes of its pending, running,
 * completed and failed lists), so a listing shows how far each flow has come.
 */
public final class FlowTable {

    /** The columns between Namespace and Age. */
    static final List<String> COLUMNS = List.of("Phase", "Jobs", "Pending", "Running", "Completed", "Failed");

    private FlowTable() {}

    /** The table of {@code rows} (GET /api/v1/jobflows); {@code No resources found} when there are none. */
    public static String format(JsonNode rows, Instant now) {
        return ResourceTable.format(rows, now, COLUMNS, row -> {
            List<String> cells = new ArrayList<>();
            // A flow the controller has not seen yet has no phase: Volcano's printer leaves it empty too.
            cells.add(row.path("phase").asText(""));
            for (String count : List.of("jobs", "pendingJobs", "runningJobs", "completedJobs", "failedJobs")) {
                cells.add(Integer.toString(row.path(count).asInt(0)));
            }
            return cells;
        });
    }
}
