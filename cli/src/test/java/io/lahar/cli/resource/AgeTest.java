package io.lahar.cli.resource;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class AgeTest {

    private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");

    @Test
    void anAgeIsTheTimeSinceTheTimestamp() {
        assertThat(Age.since(NOW.minus(Duration.ofSeconds(125)).toString(), NOW))
                .isEqualTo("2m5s");
    }

    @Test
    void noTimestampIsUnknown() {
        assertThat(Age.since("", NOW)).isEqualTo("<unknown>");
        assertThat(Age.since(null, NOW)).isEqualTo("<unknown>");
        assertThat(Age.since("null", NOW)).isEqualTo("<unknown>");
        assertThat(Age.since("yesterday", NOW)).isEqualTo("<unknown>");
    }
}
