package io.lahar.scheduler.loop;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.api.PodGroupPhase;
import io.lahar.core.scheduling.api.JobInfo;
import io.lahar.core.scheduling.api.NodeInfo;
import io.lahar.core.scheduling.api.QueueInfo;
import io.lahar.core.scheduling.api.Snapshot;
import io.lahar.core.scheduling.framework.Scheduler;
import io.lahar.core.scheduling.framework.SessionResult;
import io.lahar.scheduler.Records;
import io.lahar.schema.QueueStatus;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class QueueStatusesTest {

    private final NodeInfo node = NodeInfo.builder("n1")
            .allocatable(Map.of("cpu", "4", "memory", "8Gi"))
            .build();

    private Snapshot snapshot(List<QueueInfo> queues) {
        JobInfo fits = JobInfo.builder("fits")
                .queue("q")
                .phase(PodGroupPhase.Inqueue)
                .creationIndex(1)
                .tasks("w", 2, Map.of("cpu", "1"))
                .build();
        JobInfo tooBig = JobInfo.builder("big")
                .queue("q")
                .phase(PodGroupPhase.Inqueue)
                .creationIndex(2)
                .tasks("w", 2, Map.of("cpu", "3"))
                .build();
        return new Snapshot(List.of(node), queues, List.of(fits, tooBig));
    }

    @Test
    void thePhasesEnteredAddUpAcrossSessionsAndAnInstanceThatTakesOver() {
        Snapshot s = snapshot(List.of(QueueInfo.of("q", 1).withReclaimable(false)));
        SessionResult r = Scheduler.withDefaults().schedule(s);
        QueueStatuses statuses = new QueueStatuses();
        Map<String, QueueStatus> first =
                statuses.changes(s, r, Map.of("q", Map.of("Inqueue", 2, "Running", 1)), Records.T0);
        statuses.written(first);
        assertThat(first.get("q").getEntered()).containsEntry("Inqueue", 2L).containsEntry("Running", 1L);
        assertThat(first.get("default").getEntered()).isEmpty();

        // What a successor reads back holds Avro's Utf8 keys; it counts on from there.
        QueueStatus readBack = Records.roundTrip(first.get("q"));
        QueueStatuses successor = new QueueStatuses();
        successor.written(Map.of("q", readBack));
        Map<String, QueueStatus> next = successor.changes(s, r, Map.of("q", Map.of("Running", 1)), Records.T0);
        assertThat(next.get("q").getEntered()).containsEntry("Inqueue", 2L).containsEntry("Running", 2L);
        successor.written(next);

        assertThat(successor.changes(s, r, Map.of(), Records.T0.plusSeconds(1)))
                .as("no phase entered, nothing else changed")
                .doesNotContainKey("q");
    }

    @Test
    void countsGroupsByPhaseWritesOnlyChangesAndTombstonesAQueueThatIsGone() {
        QueueStatuses statuses = new QueueStatuses();
        Snapshot s = snapshot(List.of(QueueInfo.of("q", 1).withReclaimable(false)));
        SessionResult r = Scheduler.withDefaults().schedule(s);

        Map<String, QueueStatus> first = statuses.changes(s, r, Map.of(), Records.T0);
        assertThat(first).containsKeys("q", "default", "root");
        QueueStatus q = first.get("q");
        assertThat(q.getState()).isEqualTo(io.lahar.schema.QueueState.Open);
        assertThat(q.getRunning()).isEqualTo(1);
        assertThat(q.getInqueue()).isEqualTo(1);
        assertThat(q.getAllocated()).containsEntry("cpu", "2");
        assertThat(first.get("default").getState()).isEqualTo(io.lahar.schema.QueueState.Open);
        statuses.written(first);

        assertThat(statuses.changes(s, r, Map.of(), Records.T0.plusSeconds(1)))
                .as("nothing changed")
                .isEmpty();

        // Read back after a restart: the same statuses are not written again.
        QueueStatuses restarted = new QueueStatuses();
        restarted.written(first);
        assertThat(restarted.changes(s, r, Map.of(), Records.T0.plusSeconds(2))).isEmpty();

        Snapshot without = new Snapshot(s.nodes(), List.of(), List.of());
        Map<String, QueueStatus> gone =
                statuses.changes(without, Scheduler.withDefaults().schedule(without), Map.of(), Records.T0);
        assertThat(gone).containsEntry("q", null);
    }

    /** The state in effect (a closed queue with pod groups is Closing), the real capability, the guarantee and the plugin. */
    @Test
    void writesTheStateInEffectAndWhatTheQueuePluginEnforces() {
        QueueInfo closed = QueueInfo.of("q", 1)
                .withCapability(Map.of("cpu", "3"))
                .withGuarantee(Map.of("cpu", "1"))
                .withState(io.lahar.core.api.QueueState.Closed);
        Snapshot s = snapshot(List.of(closed));
        Map<String, QueueStatus> out =
                new QueueStatuses().changes(s, Scheduler.withDefaults().schedule(s), Map.of(), Records.T0);
        QueueStatus q = out.get("q");
        assertThat(q.getState()).isEqualTo(io.lahar.schema.QueueState.Closing);
        assertThat(q.getCapability())
                .containsEntry("cpu", "3")
                .containsEntry("memory", "8Gi"); // memory: what the cluster has
        assertThat(q.getGuarantee()).containsEntry("cpu", "1");
        assertThat(q.getPlugin()).hasToString("proportion");

        Snapshot empty = new Snapshot(List.of(node), List.of(closed), List.of());
        assertThat(new QueueStatuses()
                        .changes(empty, Scheduler.withDefaults().schedule(empty), Map.of(), Records.T0)
                        .get("q")
                        .getState())
                .isEqualTo(io.lahar.schema.QueueState.Closed);
    }
}
