package io.lahar.streams.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The harness's reading of Linux's process and machine CPU counters. */
class ProcessCpuTest {

    @Test
    void aProcessesCpuIsItsUserAndSystemTicksCountedFromTheLastParenthesis() {
        // A name with a space and parentheses of its own: the fields are counted from the last ')'.
        String stat = "4242 (kafka-producer (1)) S 1 4242 4242 0 -1 4194560 900 0 0 0 123 45 0 0 20 0 30 0 1000 0 0";
        assertThat(ProcessCpu.cpuTicks(stat)).isEqualTo(168);
    }

    @Test
    void theStolenTimeIsTheEighthCounterOfTheCpuLine() {
        assertThat(ProcessCpu.stealTicks("cpu  4705 150 1120 16250 520 0 30 977 0 0"))
                .isEqualTo(977);
        assertThatThrownBy(() -> ProcessCpu.stealTicks("cpu0 4705 150 1120 16250 520 0 30 977 0 0"))
                .hasMessageContaining("not the cpu line");
    }
}
