package io.lahar.core.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Timestamps.parse gives Instant.parse's answer, value or exception, for every text. */
class TimestampsTest {

    @Test
    void readsWhatInstantToStringWritesAsInstantParseDoes() {
        Random random = new Random(42);
        for (int i = 0; i < 100_000; i++) {
            long seconds = random.nextLong(-62_135_596_800L, 253_402_300_799L); // years 1 to 9999
            int nanos = switch (i % 4) {
                case 0 -> 0;
                case 1 -> random.nextInt(1000) * 1_000_000;
                case 2 -> random.nextInt(1_000_000) * 1000;
                default -> random.nextInt(1_000_000_000);
            };
            String text = Instant.ofEpochSecond(seconds, nanos).toString();
            assertThat(Timestamps.parse(text)).as(text).isEqualTo(Instant.parse(text));
        }
    }

    @Test
    void agreesWithInstantParseOnEdgesAndOtherShapes() {
        for (String text : List.of(
                "2026-11-29T10:00:00Z",
                "2026-11-29T10:00:00.1Z",
                "2026-11-29T10:00:00.123456789Z",
                "2024-02-29T23:59:59Z",
                "1970-01-01T00:00:00Z",
                "0000-01-01T00:00:00Z",
                "9999-12-31T23:59:59.999Z",
                "2026-11-29t10:00:00z",
                "2026-11-29T10:00:00+01:00",
                "2026-11-29T23:59:60Z",
                "+10000-01-01T00:00:00Z",
                "2026-11-29T24:00:00Z",
                "2026-11-29T10:00:00.Z")) {
            assertThat(Timestamps.parse(text)).as(text).isEqualTo(Instant.parse(text));
        }
    }

    @Test
    void refusesWhatInstantParseRefuses() {
        for (String text : List.of(
                "2025-02-29T00:00:00Z",
                "2026-13-01T00:00:00Z",
                "2026-11-31T00:00:00Z",
                "2026-11-29T10:60:00Z",
                "2026-11-29T10:00:00.1234567890Z",
                "2026-11-29T10:00:00",
                "2026-11-29 10:00:00Z",
                "2026-1x-29T10:00:00Z",
                "")) {
            assertThatThrownBy(() -> Instant.parse(text)).as(text).isInstanceOf(DateTimeParseException.class);
            assertThatThrownBy(() -> Timestamps.parse(text)).as(text).isInstanceOf(DateTimeParseException.class);
        }
    }
}
