package io.lahar.cli.flow;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.lahar.core.api.Manifests;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class FlowTableTest {

    private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");

    private static JsonNode rows(String json) throws Exception {
        return Manifests.jsonMapper().readTree(json);
    }

    @Test
    void printsOneAlignedRowPerFlowWithItsCountsAndAge() throws Exception {
        String table = FlowTable.format(rows("""
                [{"namespace":"default","name":"a-rather-long-flow","creationTimestamp":"2026-11-29T11:00:00Z","phase":"Succeed",
                  "jobs":5,"pendingJobs":0,"runningJobs":0,"completedJobs":5,"failedJobs":0},
                 {"namespace":"ml","name":"f","creationTimestamp":"2026-11-29T11:59:30Z","phase":"Running",
                  "jobs":3,"pendingJobs":1,"runningJobs":1,"completedJobs":0,"failedJobs":1}]"""), NOW);
        String[] lines = table.split("\n");
        assertThat(lines).hasSize(3);
        assertThat(lines[1].split("\\s+"))
                .containsExactly("a-rather-long-flow", "default", "Succeed", "5", "0", "0", "5", "0", "60m");
        assertThat(lines[2].split("\\s+")).containsExactly("f", "ml", "Running", "3", "1", "1", "0", "1", "30s");
        int namespace = lines[0].indexOf("Namespace");
        assertThat(namespace).isEqualTo("a-rather-long-flow".length() + 3);
        assertThat(lines[2].indexOf("ml")).isEqualTo(namespace);
        assertThat(table).doesNotContain(" \n");
    }

    @Test
    void aFlowWithoutPhaseOrTimestampStillGetsItsRow() throws Exception {
        String table = FlowTable.format(rows("[{\"namespace\":\"default\",\"name\":\"new\",\"jobs\":2}]"), NOW);
        String row = table.lines().skip(1).findFirst().orElseThrow();
        assertThat(row).startsWith("new").endsWith("<unknown>");
        assertThat(row.split("\\s+")).containsExactly("new", "default", "2", "0", "0", "0", "0", "<unknown>");
    }

    @Test
    void tasksReadVolcanosTaskStatusCount() throws Exception {
        assertThat(FlowDescription.tasks(rows("""
                {"worker":{"phase":{"Running":2,"Pending":1}},"ps":{"phase":{"Running":1}}}"""))).isEqualTo("worker: Running 2, Pending 1; ps: Running 1");
        assertThat(FlowDescription.tasks(rows("{}"))).isEqualTo("-");
    }
}
