package io.lahar.core.job.state;

import static org.assertj.core.api.Assertions.assertThat;

/** A JobActions that records which of its operations a state asked for. */
final class Recorder implements JobActions {

    String call;
    RetainPhases retain;
    Target target;
    StatusUpdater updater;
    boolean live = true;

    @Override
    public void syncJob(StatusUpdater u) {
        call = "sync";
        updater = u;
    }

    @Override
    public void killJob(RetainPhases r, StatusUpdater u) {
        call = "kill";
        retain = r;
        updater = u;
    }

    @Override
    public void killTarget(Target t, StatusUpdater u) {
        call = "killTarget";
        target = t;
        updater = u;
    }

    @Override
    public boolean hasLivePods() {
        return live;
    }

    /** Asserts that {@code state} answers {@code action} with a kill that keeps finished pods and leaves the phase as it is. */
    static void assertKillsAndStays(PhaseState state, io.lahar.core.api.Action action) {
        Recorder r = run(state, action);
        assertThat(r.call).isEqualTo("kill");
        assertThat(r.retain).isEqualTo(RetainPhases.SOFT);
        FakeStatus s = new FakeStatus(state);
        assertThat(s.apply(r.updater)).isFalse();
        assertThat(s.movedTo).isNull();
    }

    static Recorder run(PhaseState state, io.lahar.core.api.Action action) {
        Recorder r = new Recorder();
        state.execute(
                new StateAction(
                        action,
                        action == io.lahar.core.api.Action.RESTART_TASK
                                ? Target.task("worker")
                                : action == io.lahar.core.api.Action.RESTART_POD
                                        ? Target.pod("worker", "j-worker-1")
                                        : null),
                r);
        return r;
    }
}
