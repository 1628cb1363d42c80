package io.lahar.cli.cronjob;

import com.fasterxml.jackson.databind.JsonNode;
import io.lahar.cli.resource.Age;
import io.lahar.cli.resource.ResourceTable;
import java.time.Instant;
import java.util.List;

/**
 * {@code lahar cronjob list}: kubectl get cronjobs' columns (schedule, time zone, suspend,
 * active, last schedule, age) and when each next runs.
 */
public final class CronJobTable {

    /** The columns between Namespace and Age. */
    static final List<String> COLUMNS =
            List.of("Schedule", "Timezone", "Suspend", "Active", "Last-Schedule", "Next-Schedule");

    private CronJobTable() {}

    /** The table of {@code rows} (GET /api/v1/cronjobs); {@code No resources found} when there are none. */
    public static String format(JsonNode rows, Instant now) {
        return ResourceTable.format(
                rows,
                now,
                COLUMNS,
                row -> List.of(
                        row.path("schedule").asText(""),
                        text(row.path("timeZone")),
                        Boolean.toString(row.path("suspend").asBoolean(false)),
                        Integer.toString(row.path("active").asInt(0)),
                        ago(row.path("lastScheduleTime"), now),
                        text(row.path("nextScheduleTime"))));
    }

    private static String text(JsonNode value) {
        return value.isTextual() && !value.asText().isEmpty() ? value.asText() : "<none>";
    }

    /** kubectl's LAST SCHEDULE: how long ago, or {@code <none>}. */
    private static String ago(JsonNode time, Instant now) {
        return time.isTextual() && !time.asText().isEmpty() ? Age.since(time.asText(), now) : "<none>";
    }
}
