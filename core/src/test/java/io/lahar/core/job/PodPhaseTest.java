package io.lahar.core.job;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PodPhaseTest {

    @Test
    void everyPhaseIsReadByItsExactName() {
        for (PodPhase p : PodPhase.values()) {
            assertThat(PodPhase.of(p.name())).contains(p);
        }
    }

    @Test
    void anythingElseIsNoPhase() {
        assertThat(PodPhase.of(null)).isEmpty();
        assertThat(PodPhase.of("")).isEmpty();
        assertThat(PodPhase.of("running")).isEmpty();
        assertThat(PodPhase.of("Completed")).isEmpty();
    }
}
