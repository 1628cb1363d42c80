package io.lahar.core.job.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lahar.core.api.Action;
import io.lahar.core.api.JobPhase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class FinishedStateTest {

    @ParameterizedTest
    @EnumSource(
            value = JobPhase.class,
            names = {"Completed", "Failed", "Terminated"})
    void isFinalWhateverTheAction(JobPhase phase) {
        FinishedState state = new FinishedState(phase);
        assertThat(state.targets()).isEmpty();
        for (Action a : Action.values()) {
            Recorder.assertKillsAndStays(state, a);
        }
        for (JobPhase p : JobPhase.values()) {
            assertThatThrownBy(() -> new FakeStatus(state).moveTo(p, null, null))
                    .isInstanceOf(IllegalStateException.class);
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = JobPhase.class,
            names = {"Completed", "Failed", "Terminated"})
    void theFactoryGivesThisStateForItsPhase(JobPhase phase) {
        assertThat(PhaseState.of(phase)).isEqualTo(new FinishedState(phase));
    }

    @Test
    void onlyAFinishedPhaseIsOne() {
        assertThatThrownBy(() -> new FinishedState(JobPhase.Completing))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Completing");
    }
}
