package io.lahar.cli.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.admission.AdmissionContext;
import io.lahar.core.api.Manifests;
import io.lahar.core.api.ObjectMeta;
import io.lahar.core.api.Queue;
import io.lahar.core.api.QueueState;
import io.lahar.schema.QueueStatus;
import io.lahar.schema.codec.QueueCodec;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class QueueTableTest {

    static io.lahar.schema.Queue record(String name, int weight, QueueState state) {
        Queue q = new Queue(
                Queue.API_VERSION,
                Queue.KIND,
                ObjectMeta.named(name),
                new Queue.QueueSpec(weight, null, true, null, "root", null, null, null, null, null, 0),
                Queue.QueueStatus.of(state));
        return QueueCodec.toRecord(q, 0);
    }

    static QueueStatus status(
            String name, int pending, int running, Map<String, String> allocated, Map<String, String> deserved) {
        return QueueStatus.newBuilder()
                .setName(name)
                .setPending(pending)
                .setRunning(running)
                .setInqueue(1)
                .setCompleted(4)
                .setUnknown(0)
                .setAllocated(allocated)
                .setDeserved(deserved)
                .setTime(Instant.EPOCH)
                .build();
    }

    @Test
    void rootAndDefaultExistBeforeAnyRecord() {
        List<QueueView> views = QueueSnapshot.of(Map.of()).views(Map.of());

        assertThat(views).extracting(QueueView::name).containsExactly("default", "root");
        assertThat(views).extracting(QueueView::state).containsOnly("Open");
    }

    @Test
    void aTombstonedOrMissingQueueIsNotListedAndRecordsOverrideTheDefaults() {
        QueueSnapshot now = QueueSnapshot.of(Map.of(
                "default", record("default", 7, QueueState.Closed), "team-b", record("team-b", 2, QueueState.Open)));

        assertThat(now.views(Map.of())).extracting(QueueView::name).containsExactly("default", "root", "team-b");
        assertThat(now.queue("default").orElseThrow().spec().weight()).isEqualTo(7);
        assertThat(now.queue("team-c")).isEmpty();
    }

    @Test
    void tableJoinsConfigurationWithStatusInVcctlColumns() {
        QueueSnapshot now = QueueSnapshot.of(Map.of("team-b", record("team-b", 2, QueueState.Closed)));
        List<QueueView> views = now.views(
                Map.of("team-b", status("team-b", 3, 2, Map.of("memory", "4Gi", "cpu", "2"), Map.of("cpu", "6"))));

        List<String> lines = QueueTable.table(views).lines().toList();

        assertThat(lines).hasSize(4);
        assertThat(lines.get(0).split("\\s+"))
                .containsExactly(
                        "Name",
                        "Weight",
                        "State",
                        "Inqueue",
                        "Pending",
                        "Running",
                        "Unknown",
                        "Completed",
                        "Allocated",
                        "Deserved");
        assertThat(lines.get(3).split("\\s+"))
                .containsExactly("team-b", "2", "Closed", "1", "3", "2", "0", "4", "cpu=2,memory=4Gi", "cpu=6");
        // a queue the scheduler has not reported on yet shows zeros and no resources
        assertThat(lines.get(1).split("\\s+"))
                .containsExactly("default", "1", "Open", "0", "0", "0", "0", "0", "-", "-");
        // columns line up: every column starts at the same offset on every line
        int stateColumn = lines.get(0).indexOf("State");
        assertThat(lines.get(3).indexOf("Closed")).isEqualTo(stateColumn);
        assertThat(lines.get(1).indexOf("Open")).isEqualTo(stateColumn);
    }

    @Test
    void jsonIsVolcanosQueueLayout() throws Exception {
        QueueSnapshot now = QueueSnapshot.of(Map.of("team-b", record("team-b", 2, QueueState.Open)));
        QueueView view = QueueView.of(
                now.queue("team-b").orElseThrow(), status("team-b", 3, 2, Map.of("cpu", "2"), Map.of("cpu", "6")));

        var doc = Manifests.jsonMapper().readTree(QueueTable.render("json", List.of(view), true));

        assertThat(doc.path("kind").asText()).isEqualTo("Queue");
        assertThat(doc.path("metadata").path("name").asText()).isEqualTo("team-b");
        assertThat(doc.path("spec").path("weight").asInt()).isEqualTo(2);
        assertThat(doc.path("spec").path("parent").asText()).isEqualTo("root");
        assertThat(doc.path("status").path("state").asText()).isEqualTo("Open");
        assertThat(doc.path("status").path("pending").asInt()).isEqualTo(3);
        assertThat(doc.path("status").path("allocated").path("cpu").asText()).isEqualTo("2");
        assertThat(doc.path("status").path("deserved").path("cpu").asText()).isEqualTo("6");
    }

    @Test
    void yamlListHasOneDocumentPerQueue() throws Exception {
        List<QueueView> views = QueueSnapshot.of(Map.of()).views(Map.of());

        var docs = Manifests.yamlMapper().readTree(QueueTable.render("yaml", views, false));

        assertThat(docs.isArray()).isTrue();
        assertThat(docs).hasSize(2);
        assertThat(docs.get(1).path("metadata").path("name").asText()).isEqualTo("root");
        // root has no parent
        assertThat(docs.get(1).path("spec").has("parent")).isFalse();
    }

    @Test
    void aClosedQueueIsClosingWhileTheSchedulerReportsPodGroupsInIt() {
        QueueSnapshot now = QueueSnapshot.of(Map.of(
                "team-b", record("team-b", 2, QueueState.Closed), "team-c", record("team-c", 1, QueueState.Open)));
        QueueStatus draining = status("team-b", 0, 2, Map.of(), Map.of());
        draining.setState(io.lahar.schema.QueueState.Closing);
        QueueStatus drained = status("team-b", 0, 0, Map.of(), Map.of());
        drained.setState(io.lahar.schema.QueueState.Closed);
        // a stale Closing from before the queue was opened again does not hide the record's Open
        QueueStatus stale = status("team-c", 0, 1, Map.of(), Map.of());
        stale.setState(io.lahar.schema.QueueState.Closing);

        assertThat(QueueView.of(now.queue("team-b").orElseThrow(), draining).state())
                .isEqualTo("Closing");
        assertThat(QueueView.of(now.queue("team-b").orElseThrow(), drained).state())
                .isEqualTo("Closed");
        assertThat(QueueView.of(now.queue("team-b").orElseThrow(), null).state())
                .isEqualTo("Closed");
        assertThat(QueueView.of(now.queue("team-c").orElseThrow(), stale).state())
                .isEqualTo("Open");
    }

    @Test
    void configuredDeservedShowsUntilTheSchedulerReportsOne() {
        Queue q = new Queue(
                Queue.API_VERSION,
                Queue.KIND,
                ObjectMeta.named("cap"),
                new Queue.QueueSpec(1, null, true, null, null, null, Map.of("cpu", "3"), null, null, null, 0),
                Queue.QueueStatus.of(QueueState.Open));
        assertThat(QueueView.of(q, null).deserved()).isEqualTo(Map.of("cpu", "3"));
        assertThat(AdmissionContext.freshInstall().queue("default")).isPresent();
    }
}
