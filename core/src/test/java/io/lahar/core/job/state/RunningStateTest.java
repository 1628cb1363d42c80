package io.lahar.core.job.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.api.Action;
import io.lahar.core.api.JobPhase;
import org.junit.jupiter.api.Test;

class RunningStateTest {

    private final RunningState state = new RunningState();

    private FakeStatus sync(int succeeded, int failed, int running) {
        FakeStatus s = new FakeStatus(state);
        s.succeeded = succeeded;
        s.failed = failed;
        s.running = running;
        return s;
    }

    private StatusUpdater updater() {
        Recorder r = Recorder.run(state, Action.SYNC_JOB);
        assertThat(r.call).isEqualTo("sync");
        return r.updater;
    }

    @Test
    void minSuccessCompletesTheJobEvenWithPodsStillRunning() {
        FakeStatus s = sync(2, 0, 1);
        s.minSuccess = 2;
        assertThat(s.apply(updater())).isTrue();
        assertThat(s.movedTo).isEqualTo(JobPhase.Completed);
        assertThat(s.reason).isEqualTo("MinSuccessReached");
    }

    @Test
    void keepsRunningWhilePodsAreUnfinished() {
        FakeStatus s = sync(1, 1, 1);
        assertThat(s.apply(updater())).isFalse();
        assertThat(s.movedTo).isNull();
    }

    @Test
    void backToPendingWhenMorePodsPendThanTheGangCanSpare() {
        FakeStatus spare = sync(0, 0, 3);
        spare.totalReplicas = 5;
        spare.pending = 2;
        assertThat(spare.apply(updater())).isFalse();
        FakeStatus broken = sync(0, 0, 2);
        broken.totalReplicas = 5;
        broken.pending = 3;
        assertThat(broken.apply(updater())).isTrue();
        assertThat(broken.movedTo).isEqualTo(JobPhase.Pending);
    }

    @Test
    void allFinishedWithEnoughSuccessesIsCompleted() {
        FakeStatus s = sync(3, 0, 0);
        s.apply(updater());
        assertThat(s.movedTo).isEqualTo(JobPhase.Completed);
    }

    @Test
    void allFinishedWithTooFewSuccessesIsFailed() {
        FakeStatus s = sync(2, 1, 0);
        s.apply(updater());
        assertThat(s.movedTo).isEqualTo(JobPhase.Failed);
        assertThat(s.reason).isEqualTo("MinAvailableNotMet");
        assertThat(s.detail).contains("2 succeeded < minAvailable 3");
    }

    @Test
    void aTaskBelowItsMinAvailableFailsTheJob() {
        FakeStatus s = sync(3, 1, 0);
        s.totalReplicas = 4;
        s.tasks.add(new StatusView.TaskCount("ps", 1, 0));
        s.tasks.add(new StatusView.TaskCount("worker", 3, 3));
        s.apply(updater());
        assertThat(s.movedTo).isEqualTo(JobPhase.Failed);
        assertThat(s.detail).contains("task ps");
    }

    @Test
    void minSuccessNotReachedWhenAllFinishedIsFailed() {
        FakeStatus s = sync(3, 1, 0);
        s.totalReplicas = 4;
        s.totalTaskMinAvailable = 4;
        s.minSuccess = 4;
        s.apply(updater());
        assertThat(s.movedTo).isEqualTo(JobPhase.Failed);
        assertThat(s.reason).isEqualTo("MinSuccessNotMet");
    }

    @Test
    void scaledToZeroKeepsThePhase() {
        FakeStatus s = sync(0, 0, 0);
        s.totalReplicas = 0;
        assertThat(s.apply(updater())).isFalse();
    }

    @Test
    void killActionsAsInPending() {
        assertThat(Recorder.run(state, Action.RESTART_JOB).retain).isEqualTo(RetainPhases.NONE);
        assertThat(Recorder.run(state, Action.ABORT_JOB).retain).isEqualTo(RetainPhases.SOFT);
        assertThat(Recorder.run(state, Action.RESTART_TASK).call).isEqualTo("killTarget");
        assertThat(state.targets()).doesNotContain(JobPhase.Aborted, JobPhase.Terminated, JobPhase.Running);
    }
}
