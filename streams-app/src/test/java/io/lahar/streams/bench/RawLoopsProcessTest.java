package io.lahar.streams.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The raw loops' JVM reads back what the benchmark writes on its command line: the two ends of
 * {@code --separate-jvms} once disagreed on the number of arguments (the poll wait was added to one),
 * and every raw JVM refused to start.
 */
class RawLoopsProcessTest {

    @Test
    void readsBackWhatTheBenchmarkWrites() {
        RawLoopsProcess.Settings settings = new RawLoopsProcess.Settings(
                "127.0.0.1:9092",
                "a1b2",
                true,
                2,
                6,
                new RawPipe.Cadence(Duration.ofMillis(100), Duration.ofMillis(10)),
                Duration.ofSeconds(300));

        String[] args = RawLoopsProcess.args(settings).toArray(String[]::new);

        assertThat(RawLoopsProcess.parse(args)).isEqualTo(settings);
        assertThat(RawLoopsProcess.parse(RawLoopsProcess.args(new RawLoopsProcess.Settings(
                                        "h:1",
                                        "r",
                                        false,
                                        1,
                                        3,
                                        new RawPipe.Cadence(Duration.ofMillis(250), Duration.ofMillis(50)),
                                        Duration.ofSeconds(60)))
                                .toArray(String[]::new))
                        .transactional())
                .isFalse();
    }

    @Test
    void refusesArgumentsItCannotRead() {
        assertThatThrownBy(() -> RawLoopsProcess.parse(new String[] {"h:1", "r", "tx", "1", "6", "100", "300"}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("8 arguments expected, 7 given");
        assertThatThrownBy(() -> RawLoopsProcess.parse(new String[] {"h:1", "r", "both", "1", "6", "100", "10", "300"}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("tx or plain expected, not both");
        assertThatThrownBy(() -> RawLoopsProcess.parse(new String[] {"h:1", "r", "tx", "one", "6", "100", "10", "300"}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("a number expected");
    }
}
