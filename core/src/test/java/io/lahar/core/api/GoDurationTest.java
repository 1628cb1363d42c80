package io.lahar.core.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

class GoDurationTest {

    @Test
    void readsWhatKubernetesWrites() {
        assertThat(GoDuration.parse("90s")).contains(Duration.ofSeconds(90));
        assertThat(GoDuration.parse("1m30s")).contains(Duration.ofSeconds(90));
        assertThat(GoDuration.parse("1.5h")).contains(Duration.ofMinutes(90));
        assertThat(GoDuration.parse("300ms")).contains(Duration.ofMillis(300));
        assertThat(GoDuration.parse("2h45m0.5s"))
                .contains(Duration.ofHours(2).plusMinutes(45).plusMillis(500));
        assertThat(GoDuration.parse("-1.5s")).contains(Duration.ofMillis(-1500));
        assertThat(GoDuration.parse(".5s")).contains(Duration.ofMillis(500));
        assertThat(GoDuration.parse("1.s")).contains(Duration.ofSeconds(1));
        assertThat(GoDuration.parse("10µs")).contains(Duration.ofNanos(10_000));
        assertThat(GoDuration.parse("1.5ns")).contains(Duration.ofNanos(1));
        assertThat(GoDuration.parse(" 0 ")).contains(Duration.ZERO);
        assertThat(GoDuration.parse("1")).isEmpty();
        assertThat(GoDuration.parse("s")).isEmpty();
        assertThat(GoDuration.parse("1s 2s")).isEmpty();
        assertThat(GoDuration.parse("1d")).isEmpty();
        assertThat(GoDuration.parse(null)).isEmpty();
    }

    @Test
    void theCommonCaseAnswersAsTheGeneralParserDoes() {
        // Random texts over the grammar's pieces and some that break it: where the fast path answers,
        // it must be the exact sum the general path computes; where it does not, the general path decides.
        String[] pieces = {
            "0",
            "1",
            "9",
            "12",
            "999999999",
            "9223372036854775807",
            "123456789012345678",
            ".",
            ".5",
            ".000000001",
            "1.",
            "ns",
            "us",
            "µs",
            "ms",
            "s",
            "m",
            "h",
            "-",
            "+",
            "x",
            " "
        };
        Random random = new Random(11);
        int answered = 0;
        for (int run = 0; run < 200_000; run++) {
            StringBuilder text = new StringBuilder();
            for (int k = 1 + random.nextInt(6); k > 0; k--) {
                text.append(pieces[random.nextInt(pieces.length)]);
            }
            String s = text.toString().trim();
            Duration exact = GoDuration.exact(s);
            Optional<Duration> general = GoDuration.general(s);
            if (exact != null) {
                answered++;
                assertThat(general).as(s).contains(exact);
            }
        }
        assertThat(answered).as("texts the fast path answered").isGreaterThan(5_000);
    }
}
