package io.lahar.bridge.mapping;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Event;
import io.lahar.schema.JobState;
import io.lahar.schema.JobStatus;
import io.lahar.schema.JobStatusRecord;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class JobEventsTest {

    private static final Instant T = Instant.parse("2026-03-01T10:00:00Z");

    @Test
    void aChangeOfPhaseIsAnEventNamedByTheNewPhaseOnTheJobCr() {
        Optional<Event> event = JobEvents.transition(
                record("Running", "PodsRunning", "2/2 pods running"), before("Pending", null), "cr-1");

        assertThat(event).hasValueSatisfying(e -> {
            assertThat(e.getType()).isEqualTo("Normal");
            assertThat(e.getReason()).isEqualTo("Running");
            assertThat(e.getMessage()).isEqualTo("Pending → Running (PodsRunning): 2/2 pods running");
            assertThat(e.getInvolvedObject().getKind()).isEqualTo("Job");
            assertThat(e.getInvolvedObject().getApiVersion()).isEqualTo("batch.volcano.sh/v1alpha1");
            assertThat(e.getInvolvedObject().getName()).isEqualTo("tf");
            assertThat(e.getInvolvedObject().getNamespace()).isEqualTo("team");
            assertThat(e.getInvolvedObject().getUid()).isEqualTo("cr-1");
            assertThat(e.getLastTimestamp()).isEqualTo("2026-03-01T10:00:05Z");
        });
        assertThat(event.orElseThrow().getMetadata().getName())
                .as("the same transition read again is the same Event")
                .isEqualTo(JobEvents.transition(record("Running", "PodsRunning", "2/2 pods running"), null, "cr-1")
                        .orElseThrow()
                        .getMetadata()
                        .getName());
    }

    @Test
    void aFailureOrAStopIsAWarningAndANewCrsFirstPhaseIsShownToo() {
        assertThat(JobEvents.transition(record("Failed", "PodFailed", null), before("Running", null), "cr-1"))
                .hasValueSatisfying(e -> {
                    assertThat(e.getType()).isEqualTo("Warning");
                    assertThat(e.getMessage()).isEqualTo("Running → Failed (PodFailed)");
                });
        assertThat(JobEvents.transition(record("Restarting", "PodFailed", null), before("Running", null), "cr-1"))
                .hasValueSatisfying(e -> assertThat(e.getType()).isEqualTo("Warning"));
        assertThat(JobEvents.transition(record("Pending", null, null), null, "cr-1"))
                .hasValueSatisfying(e -> assertThat(e.getMessage()).isEqualTo("Pending"));
    }

    @Test
    void aPendingJobWaitingForTheSchedulerIsVolcanosPodGroupPendingOnceForEachReason() {
        JobStatusRecord waiting = record("Pending", "NotEnoughResources", "3/5 tasks in gang unschedulable");

        assertThat(JobEvents.transition(waiting, before("Pending", null), "cr-1"))
                .hasValueSatisfying(e -> {
                    assertThat(e.getType()).isEqualTo("Warning");
                    assertThat(e.getReason()).isEqualTo("PodGroupPending");
                    assertThat(e.getMessage())
                            .isEqualTo("PodGroup team:tf unschedulable, reason: NotEnoughResources: "
                                    + "3/5 tasks in gang unschedulable");
                });
        assertThat(JobEvents.transition(waiting, before("Pending", "NotEnoughResources"), "cr-1"))
                .as("the same wait, its counts changed")
                .isEmpty();
        assertThat(JobEvents.transition(
                        record("Pending", "CreatingPods", null), before("Pending", "NotEnoughResources"), "cr-1"))
                .as("progress, not a wait")
                .isEmpty();
        assertThat(JobEvents.transition(record("Running", null, null), before("Running", null), "cr-1"))
                .isEmpty();
    }

    private static Map<String, Object> before(String phase, String reason) {
        return reason == null
                ? Map.of("state", Map.of("phase", phase))
                : Map.of("state", Map.of("phase", phase, "reason", reason));
    }

    private static JobStatusRecord record(String phase, String reason, String message) {
        return JobStatusRecord.newBuilder()
                .setNamespace("team")
                .setName("tf")
                .setUid("engine-1")
                .setQueue("default")
                .setManifest("{}")
                .setTime(T.plusSeconds(9))
                .setStatus(JobStatus.newBuilder()
                        .setState(JobState.newBuilder()
                                .setPhase(phase)
                                .setReason(reason)
                                .setMessage(message)
                                .setLastTransitionTime(T.plusSeconds(5))
                                .build())
                        .setMinAvailable(1)
                        .build())
                .build();
    }
}
