package io.lahar.cli.flow;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

class AgeTest {

    private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");

    private static String age(Duration ago) {
        return Age.since(NOW.minus(ago).toString(), NOW);
    }

    @Test
    void roundsAsKubectlDoes() {
        assertThat(age(Duration.ofSeconds(0))).isEqualTo("0s");
        assertThat(age(Duration.ofSeconds(119))).isEqualTo("119s");
        assertThat(age(Duration.ofSeconds(125))).isEqualTo("2m5s");
        assertThat(age(Duration.ofMinutes(4))).isEqualTo("4m");
        assertThat(age(Duration.ofMinutes(10).plusSeconds(30))).isEqualTo("10m");
        assertThat(age(Duration.ofMinutes(179))).isEqualTo("179m");
        assertThat(age(Duration.ofMinutes(185))).isEqualTo("3h5m");
        assertThat(age(Duration.ofHours(5))).isEqualTo("5h");
        assertThat(age(Duration.ofHours(47).plusMinutes(59))).isEqualTo("47h");
        assertThat(age(Duration.ofHours(50))).isEqualTo("2d2h");
        assertThat(age(Duration.ofDays(3))).isEqualTo("3d");
        assertThat(age(Duration.ofDays(400))).isEqualTo("400d");
        assertThat(age(Duration.ofDays(365 * 3 + 10))).isEqualTo("3y10d");
        assertThat(age(Duration.ofDays(365 * 9))).isEqualTo("9y");
    }

    @Test
    void aSmallSkewIsNowAndALargeOneInvalid() {
        assertThat(age(Duration.ofMillis(-1500))).isEqualTo("0s");
        assertThat(age(Duration.ofSeconds(-5))).isEqualTo("<invalid>");
    }

    @Test
    void noTimestampIsUnknown() {
        assertThat(Age.since("", NOW)).isEqualTo("<unknown>");
        assertThat(Age.since(null, NOW)).isEqualTo("<unknown>");
        assertThat(Age.since("null", NOW)).isEqualTo("<unknown>");
        assertThat(Age.since("yesterday", NOW)).isEqualTo("<unknown>");
    }
}
