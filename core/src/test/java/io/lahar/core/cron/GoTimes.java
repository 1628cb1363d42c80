package io.lahar.core.cron;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;

/** robfig/cron's test helper getTime: the layouts its tables write times in (UTC stands for Go's Local). */
final class GoTimes {

    private static final List<DateTimeFormatter> LOCAL = List.of(
            DateTimeFormatter.ofPattern("MMM d HH:mm yyyy", Locale.ENGLISH),
            DateTimeFormatter.ofPattern("MMM d HH:mm:ss yyyy", Locale.ENGLISH),
            DateTimeFormatter.ofPattern("MMM d HH:mm:ss.SSS yyyy", Locale.ENGLISH));
    private static final DateTimeFormatter OFFSET = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ssxx");

    private GoTimes() {}

    /** The instant of {@code value}; null for "" (Go's zero time). A {@code TZ=} prefix only names the zone. */
    static Instant time(String value) {
        if (value.isEmpty()) {
            return null;
        }
        if (value.startsWith("TZ=")) {
            value = value.substring(value.indexOf(' ') + 1);
        }
        // Go checks the day of the week for syntax only, and some rows name the wrong one.
        String withoutWeekday = value.substring(value.indexOf(' ') + 1);
        for (DateTimeFormatter f : LOCAL) {
            try {
                return LocalDateTime.parse(withoutWeekday, f).toInstant(ZoneOffset.UTC);
            } catch (DateTimeParseException e) {
                // the next layout
            }
        }
        return OffsetDateTime.parse(value, OFFSET).toInstant();
    }

    /** The zone the time is given in: its {@code TZ=} prefix, else UTC (Go's Local in these tests). */
    static ZoneId zone(String value) {
        return value.startsWith("TZ=") ? ZoneId.of(value.substring(3, value.indexOf(' '))) : ZoneOffset.UTC;
    }
}
