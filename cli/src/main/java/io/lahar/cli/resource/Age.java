package io.lahar.cli.resource;

import io.lahar.core.util.HumanDuration;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * kubectl's AGE column: the time since a creation timestamp, as {@link HumanDuration} rounds it,
 * so a listing reads the same as {@code vcctl jobflow list}.
 */
public final class Age {

    private Age() {}

    /** The age of an RFC 3339 {@code timestamp} at {@code now}; {@code <unknown>} when there is none or it does not parse. */
    public static String since(String timestamp, Instant now) {
        if (timestamp == null || timestamp.isBlank() || timestamp.equals("null")) {
            return "<unknown>";
        }
        try {
            return HumanDuration.of(Duration.between(Instant.parse(timestamp), now));
        } catch (DateTimeParseException e) {
            return "<unknown>";
        }
    }
}
