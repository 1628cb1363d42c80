package io.lahar.streams.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ThreadCpuTest {

    @Test
    void theRunQueueWaitIsTheSecondFieldOfASchedstatLine() {
        // On a core 180.3 ms, waited for one 53.5 ms, ran 316 times.
        assertThat(ThreadCpu.runQueueWaitNs("180289395 53502660 316\n")).isEqualTo(53_502_660L);
    }

    @Test
    void aLineThatIsNotSchedstatIsRefused() {
        assertThatThrownBy(() -> ThreadCpu.runQueueWaitNs("180289395"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a schedstat line");
    }
}
