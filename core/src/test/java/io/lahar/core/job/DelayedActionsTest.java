package io.lahar.core.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.api.Action;
import io.lahar.core.api.Event;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class DelayedActionsTest {

    private static final JobPod POD = new JobPod("j-w-0", "w", 0, 0, PodPhase.Pending, null, 0, true, false);

    private static PolicyMatch after(Action action, int seconds) {
        return new PolicyMatch(action, Duration.ofSeconds(seconds), "spec.policies[0]");
    }

    private static Timer.DelayedAction delayed(Event event, Action action) {
        return new Timer.DelayedAction(10_000, event, action, "w", "j-w-0", 0, "spec.policies[0]", event.value());
    }

    @Test
    void armingRemembersTheActionWithItsDueTimeAndCause() {
        DelayedActions timers = new DelayedActions(List.of());
        timers.arm(Request.pod(Event.POD_PENDING, POD, "pod j-w-0 is Pending"), after(Action.ABORT_JOB, 90), 1_000, 0);
        assertThat(timers.timers())
                .containsExactly(new Timer.DelayedAction(
                        91_000,
                        Event.POD_PENDING,
                        Action.ABORT_JOB,
                        "w",
                        "j-w-0",
                        0,
                        "spec.policies[0]",
                        "pod j-w-0 is Pending for 1m30s"));
    }

    @Test
    void aPodHasOneDelayedActionTheSameActionKeepsItAnotherReplacesIt() {
        DelayedActions timers = new DelayedActions(List.of());
        Request pending = Request.pod(Event.POD_PENDING, POD, null);
        timers.arm(pending, after(Action.ABORT_JOB, 5), 0, 0);
        timers.arm(pending, after(Action.ABORT_JOB, 9), 1_000, 0);
        assertThat(timers.timers()).extracting(Timer::due).containsExactly(5_000L);
        timers.arm(pending, after(Action.RESTART_JOB, 9), 1_000, 0);
        assertThat(timers.timers())
                .singleElement()
                .extracting(t -> ((Timer.DelayedAction) t).action())
                .isEqualTo(Action.RESTART_JOB);
    }

    @Test
    void aPodsNewsCancelsWhatItMakesMoot() {
        List<Timer> stored = List.of(delayed(Event.POD_PENDING, Action.ABORT_JOB));
        DelayedActions timers = new DelayedActions(stored);
        timers.cancelMoot(Request.pod(Event.POD_PENDING, POD, null));
        assertThat(timers.timers()).isSameAs(stored);
        timers.cancelMoot(Request.podFailed(POD, 1, null));
        assertThat(timers.timers()).isEmpty();
        assertThat(stored).hasSize(1);

        DelayedActions failed = new DelayedActions(List.of(delayed(Event.POD_FAILED, Action.RESTART_JOB)));
        failed.cancelMoot(Request.pod(Event.POD_EVICTED, POD, null));
        assertThat(failed.timers()).hasSize(1);
        failed.cancelMoot(Request.pod(Event.POD_RUNNING, POD, null));
        assertThat(failed.timers()).isEmpty();
    }

    @Test
    void anActionThatRanCancelsTheDelayedActionsOfItsScope() {
        Timer.DelayedAction task = delayed(Event.POD_FAILED, Action.RESTART_TASK);
        Timer.DelayedAction job = delayed(Event.POD_EVICTED, Action.ABORT_JOB);
        DelayedActions timers = new DelayedActions(List.of(task, job));
        timers.cleanup(Action.SYNC_JOB, null, null, NO_PARTITIONS);
        timers.cleanup(Action.RESTART_TASK, "other", null, NO_PARTITIONS);
        assertThat(timers.timers()).containsExactly(task, job);
        timers.cleanup(Action.RESTART_JOB, null, null, NO_PARTITIONS);
        assertThat(timers.timers()).containsExactly(task);
        timers.cleanup(Action.RESTART_TASK, "w", null, NO_PARTITIONS);
        assertThat(timers.timers()).isEmpty();
    }

    private static final java.util.function.Function<String, Integer> NO_PARTITIONS = pod -> null;

    @Test
    void aRestartPartitionCancelsTheDelayedRestartsOfThatPartitionOnly() {
        Timer.DelayedAction first = new Timer.DelayedAction(
                1_000, Event.POD_FAILED, Action.RESTART_PARTITION, "w", "j-w-0", 0, "policy", "PodFailed");
        Timer.DelayedAction second = new Timer.DelayedAction(
                1_000, Event.POD_FAILED, Action.RESTART_PARTITION, "w", "j-w-2", 0, "policy", "PodFailed");
        Timer.DelayedAction pod = delayed(Event.POD_FAILED, Action.RESTART_POD);
        java.util.Map<String, Integer> partitions = java.util.Map.of("j-w-0", 0, "j-w-1", 0, "j-w-2", 1);
        DelayedActions timers = new DelayedActions(List.of(first, second, pod));

        timers.cleanup(Action.RESTART_JOB, null, null, partitions::get);
        assertThat(timers.timers()).containsExactly(first, second, pod);
        timers.cleanup(Action.RESTART_PARTITION, "w", "j-w-1", partitions::get);
        assertThat(timers.timers()).containsExactly(second, pod);
    }

    @Test
    void dueTimersAreTakenEarliestFirstAndTheTtlIsArmedOnce() {
        DelayedActions timers = new DelayedActions(List.of(delayed(Event.POD_FAILED, Action.RESTART_JOB)));
        timers.armTtl(3_000);
        timers.armTtl(1_000);
        assertThat(timers.takeDue(2_999)).isNull();
        assertThat(timers.takeDue(20_000)).isEqualTo(new Timer.TtlAfterFinished(3_000));
        assertThat(timers.takeDue(20_000)).isInstanceOf(Timer.DelayedAction.class);
        assertThat(timers.takeDue(20_000)).isNull();
    }

    @Test
    void aDueActionAppliesInItsVersionAndAPendingTimeoutOnlyWhileThePodIsPending() {
        Timer.DelayedAction pending = delayed(Event.POD_PENDING, Action.ABORT_JOB);
        assertThat(DelayedActions.stillApplies(pending, 0, POD)).isTrue();
        assertThat(DelayedActions.stillApplies(pending, 1, POD)).isFalse();
        assertThat(DelayedActions.stillApplies(pending, 0, null)).isFalse();
        assertThat(DelayedActions.stillApplies(pending, 0, POD.withPhase(PodPhase.Running, null, 0)))
                .isFalse();
        assertThat(DelayedActions.stillApplies(pending, 0, POD.markTerminating()))
                .isFalse();
        assertThat(DelayedActions.stillApplies(delayed(Event.POD_FAILED, Action.RESTART_JOB), 0, null))
                .isTrue();
    }
}
