package io.lahar.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class TableViewTest {

    private final TableView view = new TableView(
            ApiDiscovery.volcanoCluster(), Clock.fixed(Instant.parse("2026-01-01T00:10:00Z"), ZoneOffset.UTC));

    @Test
    void podsPrintReadyStatusAndNode() {
        String list = """
                {"kind":"List","apiVersion":"v1","metadata":{"resourceVersion":"7"},"items":[
                  {"metadata":{"name":"a","namespace":"default","creationTimestamp":"2026-01-01T00:09:00Z"},
                   "spec":{"nodeName":"node-1","containers":[{"name":"m"}]},
                   "status":{"phase":"Succeeded","containerStatuses":[{"name":"m","ready":false,
                     "state":{"terminated":{"exitCode":0,"reason":"Completed"}}}]}}]}
                """;

        var table = CrudStore.parse(
                view.render("/api/v1/namespaces/default/pods", list, false).orElseThrow());

        assertThat(table.path("kind").asText()).isEqualTo("Table");
        assertThat(table.path("columnDefinitions").findValuesAsText("name"))
                .startsWith("Name", "Ready", "Status", "Restarts", "Age", "IP", "Node");
        var cells = table.path("rows").get(0).path("cells");
        assertThat(cells.get(0).asText()).isEqualTo("a");
        assertThat(cells.get(1).asText()).isEqualTo("0/1");
        assertThat(cells.get(2).asText()).isEqualTo("Completed");
        assertThat(cells.get(4).asText()).isEqualTo("60s");
        assertThat(cells.get(6).asText()).isEqualTo("node-1");
        assertThat(table.path("rows").get(0).path("object").path("kind").asText())
                .isEqualTo("PartialObjectMetadata");
    }

    @Test
    void volcanoJobsPrintTheirCrdColumns() {
        String job = """
                {"apiVersion":"batch.volcano.sh/v1alpha1","kind":"Job",
                 "metadata":{"name":"j","namespace":"default","creationTimestamp":"2026-01-01T00:00:00Z"},
                 "spec":{"queue":"q1"},"status":{"state":{"phase":"Running"},"minAvailable":2,"running":2}}
                """;

        var table = CrudStore.parse(view.render("/apis/batch.volcano.sh/v1alpha1/namespaces/default/jobs/j", job, true)
                .orElseThrow());

        var cells = table.path("rows").get(0).path("cells");
        assertThat(cells.toString()).isEqualTo("[\"j\",\"Running\",2,2,\"10m\",\"q1\"]");
        assertThat(table.path("rows").get(0).path("object").path("kind").asText())
                .isEqualTo("Job");
    }

    @Test
    void eventsPrintWhatHappenedToWhatAsKubectlDoes() {
        String list = """
                {"kind":"EventList","apiVersion":"v1","items":[
                  {"metadata":{"name":"j.1","namespace":"default","creationTimestamp":"2026-01-01T00:00:00Z"},
                   "involvedObject":{"kind":"Job","name":"j"},"type":"Warning","reason":"Rejected",
                   "message":"spec.queue: no such queue","lastTimestamp":"2026-01-01T00:08:00Z"}]}
                """;

        var table = CrudStore.parse(
                view.render("/api/v1/namespaces/default/events", list, false).orElseThrow());

        assertThat(table.path("rows").get(0).path("cells").toString())
                .isEqualTo("[\"2m\",\"Warning\",\"Rejected\",\"job/j\",\"spec.queue: no such queue\"]");
    }

    @Test
    void subresourcesAndUnknownPathsAreNotTables() {
        assertThat(view.render("/api/v1/namespaces/default/pods/a/status", "{\"metadata\":{}}", false))
                .isEmpty();
        assertThat(view.render("/apis/example.com/v1/widgets", "{\"items\":[]}", false))
                .isEmpty();
    }
}
