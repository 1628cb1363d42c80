package io.lahar.core.job;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class TimerClockTest {

    @Test
    void theFirstTickSetsTheClock() {
        assertThat(TimerClock.advance(OptionalLong.empty(), 5_000, 1_000)).hasValue(5_000);
    }

    @Test
    void aLateOrRepeatedTickDoesNotMoveIt() {
        assertThat(TimerClock.advance(OptionalLong.of(5_000), 5_000, 1_000)).isEmpty();
        assertThat(TimerClock.advance(OptionalLong.of(5_000), 4_000, 1_000)).isEmpty();
    }

    @Test
    void afterAJumpItMovesAtMostMaxStepPerTick() {
        assertThat(TimerClock.advance(OptionalLong.of(5_000), 5_800, 1_000)).hasValue(5_800);
        assertThat(TimerClock.advance(OptionalLong.of(5_000), 6_000, 1_000)).hasValue(6_000);
        assertThat(TimerClock.advance(OptionalLong.of(5_000), 60_000, 1_000)).hasValue(6_000);
    }
}
