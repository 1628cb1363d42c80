package io.lahar.core.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.api.JobStatus;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TaskCountsTest {

    @Test
    void aTaskAndAPhaseAppearOnceAPodIsCountedThere() {
        TaskCounts counts = new TaskCounts();
        counts.add("worker", PodPhase.Running);
        counts.add("worker", PodPhase.Running);
        counts.add("worker", PodPhase.Succeeded);
        counts.add("ps", PodPhase.Pending);

        assertThat(counts.counted("worker")).isTrue();
        assertThat(counts.counted("chief")).isFalse();
        assertThat(counts.count("worker", PodPhase.Running)).isEqualTo(2);
        assertThat(counts.count("worker", PodPhase.Failed)).isZero();
        assertThat(counts.count("chief", PodPhase.Running)).isZero();
        assertThat(counts.toStatus())
                .isEqualTo(Map.of(
                        "worker", new JobStatus.TaskState(Map.of("Running", 2, "Succeeded", 1)),
                        "ps", new JobStatus.TaskState(Map.of("Pending", 1))));
    }

    @Test
    void theStatusMapsAreSortedSoReplayWritesThemByteForByte() {
        TaskCounts counts = new TaskCounts();
        counts.add("worker", PodPhase.Unknown);
        counts.add("worker", PodPhase.Failed);
        counts.add("worker", PodPhase.Succeeded);
        counts.add("chief", PodPhase.Running);

        Map<String, JobStatus.TaskState> status = counts.toStatus();
        assertThat(status.keySet()).containsExactly("chief", "worker");
        assertThat(status.get("worker").phase().keySet()).containsExactly("Failed", "Succeeded", "Unknown");
    }

    @Test
    void storedCountsComeBackAsTheyWereWritten() {
        Map<String, JobStatus.TaskState> stored = Map.of(
                "worker", new JobStatus.TaskState(Map.of("Running", 2, "Succeeded", 1)),
                "ps", new JobStatus.TaskState(null));
        TaskCounts counts = TaskCounts.of(stored);

        assertThat(counts.counted("ps")).isTrue();
        assertThat(counts.count("worker", PodPhase.Succeeded)).isEqualTo(1);
        assertThat(counts.toStatus())
                .isEqualTo(Map.of(
                        "worker", new JobStatus.TaskState(Map.of("Running", 2, "Succeeded", 1)),
                        "ps", new JobStatus.TaskState(Map.of())));
        assertThat(TaskCounts.of(null).toStatus()).isEmpty();
    }

    @Test
    void nothingCountedIsAnEmptyMap() {
        assertThat(new TaskCounts().toStatus()).isEmpty();
    }
}
