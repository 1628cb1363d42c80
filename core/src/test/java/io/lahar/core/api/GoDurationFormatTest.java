package io.lahar.core.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.Test;

class GoDurationFormatTest {

    @Test
    void writesAsGoDoes() {
        assertThat(GoDuration.format(0)).isEqualTo("0s");
        assertThat(GoDuration.format(5)).isEqualTo("5ms");
        assertThat(GoDuration.format(-999)).isEqualTo("-999ms");
        assertThat(GoDuration.format(1_000)).isEqualTo("1s");
        assertThat(GoDuration.format(1_500)).isEqualTo("1.5s");
        assertThat(GoDuration.format(61_250)).isEqualTo("1m1.25s");
        assertThat(GoDuration.format(3_600_000)).isEqualTo("1h0m0s");
        assertThat(GoDuration.format(3_723_125)).isEqualTo("1h2m3.125s");
        assertThat(GoDuration.format(-90_010)).isEqualTo("-1m30.01s");
    }

    @Test
    void readsBackAsTheSameMilliseconds() {
        Random random = new Random(5);
        for (int run = 0; run < 100_000; run++) {
            long ms = switch (run % 3) {
                case 0 -> random.nextInt(10_000);
                case 1 -> random.nextInt(Integer.MAX_VALUE);
                default -> -random.nextLong(1L << 40);
            };
            String text = GoDuration.format(ms);
            assertThat(GoDuration.parse(text)).as(text).contains(Duration.ofMillis(ms));
        }
    }
}
