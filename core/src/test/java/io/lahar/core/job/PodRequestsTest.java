package io.lahar.core.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.api.Event;
import io.lahar.core.api.JobSpec;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class PodRequestsTest {

    /** Task w: 2 replicas, maxRetry 1 (TaskFailed past one container restart over the task's live pods). */
    private static final JobSpec SPEC = TestJobs.admitted("""
            apiVersion: batch.volcano.sh/v1alpha1
            kind: Job
            metadata: {name: j}
            spec:
              tasks:
              - name: w
                replicas: 2
                maxRetry: 1
                template: {spec: {containers: [{name: c, image: i}]}}
            """).spec();

    /**
     * One observation of pod j-w-0: its phase before (null: the engine did not know it) and whether
     * the world had reported it, what is reported now, and pod j-w-1 beside it; the request expected.
     */
    record Row(
            PodPhase before,
            boolean seen,
            PodPhase now,
            Integer exit,
            int restarts,
            PodPhase other,
            int otherRestarts,
            Event event,
            String cause) {}

    static Stream<Row> observations() {
        return Stream.of(
                new Row(
                        null,
                        false,
                        PodPhase.Pending,
                        null,
                        0,
                        PodPhase.Pending,
                        0,
                        Event.POD_PENDING,
                        "pod j-w-0 is Pending"),
                new Row(
                        PodPhase.Pending,
                        false,
                        PodPhase.Pending,
                        null,
                        0,
                        PodPhase.Pending,
                        0,
                        Event.POD_PENDING,
                        "pod j-w-0 is Pending"),
                new Row(
                        PodPhase.Pending,
                        true,
                        PodPhase.Pending,
                        null,
                        0,
                        PodPhase.Pending,
                        0,
                        Event.OUT_OF_SYNC,
                        null),
                new Row(
                        PodPhase.Pending,
                        true,
                        PodPhase.Running,
                        null,
                        0,
                        PodPhase.Pending,
                        0,
                        Event.POD_RUNNING,
                        null),
                new Row(
                        PodPhase.Running,
                        true,
                        PodPhase.Running,
                        null,
                        0,
                        PodPhase.Pending,
                        0,
                        Event.OUT_OF_SYNC,
                        null),
                new Row(
                        PodPhase.Running,
                        true,
                        PodPhase.Failed,
                        137,
                        0,
                        PodPhase.Running,
                        0,
                        Event.POD_FAILED,
                        "pod j-w-0 exited 137"),
                new Row(
                        PodPhase.Running,
                        true,
                        PodPhase.Failed,
                        null,
                        0,
                        PodPhase.Running,
                        0,
                        Event.POD_FAILED,
                        "pod j-w-0 failed"),
                new Row(PodPhase.Failed, true, PodPhase.Failed, 137, 0, PodPhase.Running, 0, Event.OUT_OF_SYNC, null),
                new Row(
                        null,
                        false,
                        PodPhase.Failed,
                        1,
                        0,
                        PodPhase.Running,
                        0,
                        Event.POD_FAILED,
                        "pod j-w-0 exited 1"),
                new Row(
                        PodPhase.Running,
                        true,
                        PodPhase.Succeeded,
                        null,
                        0,
                        PodPhase.Running,
                        0,
                        Event.OUT_OF_SYNC,
                        null),
                new Row(
                        PodPhase.Running,
                        true,
                        PodPhase.Succeeded,
                        null,
                        0,
                        PodPhase.Succeeded,
                        0,
                        Event.TASK_COMPLETED,
                        "task w completed: all 2 pod(s) succeeded"),
                new Row(
                        PodPhase.Succeeded,
                        true,
                        PodPhase.Succeeded,
                        null,
                        0,
                        PodPhase.Succeeded,
                        0,
                        Event.OUT_OF_SYNC,
                        null),
                new Row(
                        PodPhase.Running,
                        true,
                        PodPhase.Running,
                        null,
                        2,
                        PodPhase.Running,
                        0,
                        Event.TASK_FAILED,
                        "task w containers restarted 2 times, over its maxRetry 1"),
                new Row(
                        PodPhase.Pending,
                        true,
                        PodPhase.Pending,
                        null,
                        1,
                        PodPhase.Running,
                        1,
                        Event.TASK_FAILED,
                        "task w containers restarted 2 times, over its maxRetry 1"),
                new Row(
                        PodPhase.Running,
                        true,
                        PodPhase.Running,
                        null,
                        1,
                        PodPhase.Succeeded,
                        1,
                        Event.OUT_OF_SYNC,
                        null),
                new Row(
                        PodPhase.Running,
                        true,
                        PodPhase.Failed,
                        2,
                        5,
                        PodPhase.Running,
                        0,
                        Event.POD_FAILED,
                        "pod j-w-0 exited 2"),
                new Row(
                        PodPhase.Running,
                        true,
                        PodPhase.Unknown,
                        null,
                        0,
                        PodPhase.Running,
                        0,
                        Event.OUT_OF_SYNC,
                        null));
    }

    @ParameterizedTest
    @MethodSource("observations")
    void anObservationRaisesItsRequest(Row row) {
        JobPod before =
                row.before() == null ? null : new JobPod("j-w-0", "w", 0, 1, row.before(), null, 0, row.seen(), false);
        JobPod now = new JobPod("j-w-0", "w", 0, 1, row.now(), row.exit(), row.restarts(), true, false);
        JobPod other = new JobPod("j-w-1", "w", 1, 1, row.other(), null, row.otherRestarts(), true, false);
        PodTally tally = FrozenPods.copyOf(Map.of(now.name(), now, other.name(), other))
                .builder()
                .tally();

        Request r = PodRequests.observed(before, now, SPEC, tally);

        assertThat(r.event()).isEqualTo(row.event());
        assertThat(r.cause()).isEqualTo(row.cause());
        assertThat(r.task()).isEqualTo("w");
        assertThat(r.pod()).isEqualTo("j-w-0");
        assertThat(r.version()).isEqualTo(1);
        assertThat(r.exitCode()).isEqualTo(row.event() == Event.POD_FAILED ? row.exit() : null);
        assertThat(r.action()).isNull();
    }

    record Gone(boolean terminating, Event event, String cause) {}

    static Stream<Gone> deletions() {
        return Stream.of(
                new Gone(true, Event.OUT_OF_SYNC, null),
                new Gone(false, Event.POD_EVICTED, "pod j-w-0 was deleted by someone else while Running"));
    }

    @ParameterizedTest
    @MethodSource("deletions")
    void aPodGoneIsAnEvictionUnlessTheEngineDeletedIt(Gone row) {
        JobPod gone = new JobPod("j-w-0", "w", 0, 2, PodPhase.Running, null, 0, true, row.terminating());

        Request r = PodRequests.deleted(gone);

        assertThat(r.event()).isEqualTo(row.event());
        assertThat(r.cause()).isEqualTo(row.cause());
        assertThat(r.pod()).isEqualTo("j-w-0");
        assertThat(r.version()).isEqualTo(2);
    }
}
