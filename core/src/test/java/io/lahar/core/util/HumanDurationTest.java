package io.lahar.core.util;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class HumanDurationTest {

    private static String age(Duration d) {
        return HumanDuration.of(d);
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
        assertThat(age(Duration.ofSeconds(192))).isEqualTo("3m12s");
        assertThat(age(Duration.ofMinutes(303))).isEqualTo("5h3m");
        assertThat(age(Duration.ofHours(30))).isEqualTo("30h");
        assertThat(age(Duration.ofDays(800))).isEqualTo("2y70d");
    }

    @Test
    void aSmallSkewIsNowAndALargeOneInvalid() {
        assertThat(age(Duration.ofMillis(-1500))).isEqualTo("0s");
        assertThat(age(Duration.ofSeconds(-5))).isEqualTo("<invalid>");
    }
}
