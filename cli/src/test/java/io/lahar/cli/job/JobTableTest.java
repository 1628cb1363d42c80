package io.lahar.cli.job;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.lahar.core.api.Manifests;
import org.junit.jupiter.api.Test;

class JobTableTest {

    private static JsonNode rows(String json) throws Exception {
        return Manifests.jsonMapper().readTree(json);
    }

    @Test
    void printsVcctlColumnsAlignedToTheWidestCell() throws Exception {
        String table = JobTable.format(rows("""
                [{"namespace":"default","name":"tf-job","creationTimestamp":"2026-11-29T10:00:00Z","phase":"Running",
                  "jobType":"Batch","queue":"default","replicas":6,"minAvailable":6,"pending":0,"running":6,
                  "succeeded":0,"failed":0,"unknown":0,"retryCount":1},
                 {"namespace":"ml","name":"a-much-longer-job-name","creationTimestamp":null,"phase":"Pending",
                  "jobType":"Batch","queue":"q","replicas":12,"minAvailable":3,"pending":12,"running":0,
                  "succeeded":0,"failed":0,"unknown":0,"retryCount":0}]
                """), false);
        String[] lines = table.split("\n");
        assertThat(lines).hasSize(3);
        assertThat(lines[0].split("\\s+"))
                .containsExactly(
                        "Name",
                        "Creation",
                        "Phase",
                        "JobType",
                        "Replicas",
                        "Min",
                        "Pending",
                        "Running",
                        "Succeeded",
                        "Failed",
                        "Unknown",
                        "RetryCount");
        assertThat(lines[1].split("\\s+"))
                .containsExactly("tf-job", "2026-11-29", "Running", "Batch", "6", "6", "0", "6", "0", "0", "0", "1");
        // The creation column starts where the header's does, after the longest name and 3 spaces.
        int creation = lines[0].indexOf("Creation");
        assertThat(creation).isEqualTo("a-much-longer-job-name".length() + 3);
        assertThat(lines[1].indexOf("2026-11-29")).isEqualTo(creation);
        assertThat(lines[2].substring(creation).split("\\s+")).startsWith("<unknown>", "Pending");
        assertThat(table).doesNotContain(" \n");
    }

    @Test
    void allNamespacesAddsTheNamespaceColumnFirst() throws Exception {
        String table = JobTable.format(rows("""
                [{"namespace":"ml","name":"j","phase":"Completed","replicas":1,"minAvailable":1,"succeeded":1}]
                """), true);
        assertThat(table.lines().findFirst().orElseThrow()).startsWith("Namespace   Name");
        assertThat(table.lines().skip(1).findFirst().orElseThrow().split("\\s+"))
                .containsExactly("ml", "j", "<unknown>", "Completed", "Batch", "1", "1", "0", "0", "1", "0", "0", "0");
    }

    @Test
    void anEmptyListSaysSo() throws Exception {
        assertThat(JobTable.format(rows("[]"), false)).isEqualTo("No resources found\n");
    }

    @Test
    void describesAJobWithItsTasks() throws Exception {
        String text = JobDescription.describe(rows("""
                {"metadata":{"name":"tf","namespace":"default","creationTimestamp":"2026-11-29T10:00:00Z"},
                 "spec":{"queue":"default","maxRetry":3,"minAvailable":3,"tasks":[{"name":"ps","replicas":1},{"name":"worker","replicas":2,"minAvailable":1}]},
                 "status":{"state":{"phase":"Aborted","reason":"CommandIssued"},"minAvailable":3,"retryCount":1,"pending":0}}
                """));
        assertThat(text)
                .contains("Name:            tf")
                .contains("Phase:           Aborted")
                .contains("Reason:          CommandIssued")
                .contains("Retry Count:     1 of 3");
        assertThat(text.lines()
                        .filter(l -> l.startsWith("worker"))
                        .findFirst()
                        .orElseThrow()
                        .split("\\s+"))
                .as("replicas, min, then its pods by phase")
                .containsExactly("worker", "2", "1", "0", "0", "0", "0", "0");
        assertThat(text.lines()
                        .filter(l -> l.startsWith("Task"))
                        .findFirst()
                        .orElseThrow()
                        .split("\\s+"))
                .containsExactly("Task", "Replicas", "Min", "Pending", "Running", "Succeeded", "Failed", "Unknown");
    }
}
