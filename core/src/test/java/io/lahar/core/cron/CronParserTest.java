package io.lahar.core.cron;

import static io.lahar.core.cron.CronParser.all;
import static io.lahar.core.cron.SpecSchedule.DOM;
import static io.lahar.core.cron.SpecSchedule.DOW;
import static io.lahar.core.cron.SpecSchedule.HOURS;
import static io.lahar.core.cron.SpecSchedule.MINUTES;
import static io.lahar.core.cron.SpecSchedule.MONTHS;
import static io.lahar.core.cron.SpecSchedule.STAR_BIT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * robfig/cron v3.0.1's parser_test.go tables (TestRange, TestField, TestAll, TestBits,
 * TestParseScheduleErrors, TestParseSchedule, TestStandardSpecSchedule) and spec_test.go's
 * TestErrors and TestSlash0NoHang, for the standard (five-field) parser Volcano uses. Rows of the
 * six-field parser are kept where the standard parser reads the same spec without its seconds.
 */
class CronParserTest {

    static final ZoneId LOCAL = ZoneOffset.UTC;
    static final ZoneId TOKYO = ZoneId.of("Asia/Tokyo");

    record RangeRow(String expr, int min, int max, long expected, String err) {}

    @Test
    void testRange() {
        List<RangeRow> rows = List.of(
                new RangeRow("5", 0, 7, 1L << 5, ""),
                new RangeRow("0", 0, 7, 1L, ""),
                new RangeRow("7", 0, 7, 1L << 7, ""),
                new RangeRow("5-5", 0, 7, 1L << 5, ""),
                new RangeRow("5-6", 0, 7, 1L << 5 | 1L << 6, ""),
                new RangeRow("5-7", 0, 7, 1L << 5 | 1L << 6 | 1L << 7, ""),
                new RangeRow("5-6/2", 0, 7, 1L << 5, ""),
                new RangeRow("5-7/2", 0, 7, 1L << 5 | 1L << 7, ""),
                new RangeRow("5-7/1", 0, 7, 1L << 5 | 1L << 6 | 1L << 7, ""),
                new RangeRow("*", 1, 3, 1L << 1 | 1L << 2 | 1L << 3 | STAR_BIT, ""),
                new RangeRow("*/2", 1, 3, 1L << 1 | 1L << 3, ""),
                new RangeRow("5--5", 0, 0, 0, "too many hyphens"),
                new RangeRow("jan-x", 0, 0, 0, "failed to parse int from"),
                new RangeRow("2-x", 1, 5, 0, "failed to parse int from"),
                new RangeRow("*/-12", 0, 0, 0, "negative number"),
                new RangeRow("*//2", 0, 0, 0, "too many slashes"),
                new RangeRow("1", 3, 5, 0, "below minimum"),
                new RangeRow("6", 3, 5, 0, "above maximum"),
                new RangeRow("5-3", 3, 5, 0, "beyond end of range"),
                new RangeRow("*/0", 0, 0, 0, "should be a positive number"));
        for (RangeRow r : rows) {
            SpecSchedule.Bounds b = new SpecSchedule.Bounds(r.min(), r.max(), null);
            if (r.err().isEmpty()) {
                assertThat(CronParser.getRange(r.expr(), b)).as(r.expr()).isEqualTo(r.expected());
            } else {
                assertThatThrownBy(() -> CronParser.getRange(r.expr(), b))
                        .as(r.expr())
                        .isInstanceOf(ScheduleException.class)
                        .hasMessageContaining(r.err());
            }
        }
    }

    @Test
    void testField() {
        SpecSchedule.Bounds b = new SpecSchedule.Bounds(1, 7, null);
        assertThat(CronParser.getField("5", b)).isEqualTo(1L << 5);
        assertThat(CronParser.getField("5,6", b)).isEqualTo(1L << 5 | 1L << 6);
        assertThat(CronParser.getField("5,6,7", b)).isEqualTo(1L << 5 | 1L << 6 | 1L << 7);
        assertThat(CronParser.getField("1,5-7/2,3", b)).isEqualTo(1L << 1 | 1L << 5 | 1L << 7 | 1L << 3);
    }

    @Test
    void testAll() {
        assertThat(all(MINUTES)).isEqualTo(0xfffffffffffffffL | STAR_BIT);
        assertThat(all(HOURS)).isEqualTo(0xffffffL | STAR_BIT);
        assertThat(all(DOM)).isEqualTo(0xfffffffeL | STAR_BIT);
        assertThat(all(MONTHS)).isEqualTo(0x1ffeL | STAR_BIT);
        assertThat(all(DOW)).isEqualTo(0x7fL | STAR_BIT);
    }

    @Test
    void testBits() {
        assertThat(CronParser.getBits(0, 0, 1)).isEqualTo(0x1);
        assertThat(CronParser.getBits(1, 1, 1)).isEqualTo(0x2);
        assertThat(CronParser.getBits(1, 5, 2)).isEqualTo(0x2a);
        assertThat(CronParser.getBits(1, 4, 2)).isEqualTo(0xa);
    }

    @Test
    void testParseScheduleErrors() {
        // "* 5 j * * *" is the six-field row: the standard parser reads "5 j * * *" alike.
        for (String[] row : new String[][] {
            {"5 j * * *", "failed to parse int from"},
            {"@every Xm", "failed to parse duration"},
            {"@unrecognized", "unrecognized descriptor"},
            {"* * * *", "expected exactly 5 fields"},
            {"", "empty spec string"}
        }) {
            assertThatThrownBy(() -> CronParser.parseStandard(row[0], LOCAL))
                    .as(row[0])
                    .isInstanceOf(ScheduleException.class)
                    .hasMessageContaining(row[1]);
        }
    }

    static SpecSchedule every5min(ZoneId zone) {
        return new SpecSchedule(1L, 1L << 5, all(HOURS), all(DOM), all(MONTHS), all(DOW), zone);
    }

    static SpecSchedule midnight(ZoneId zone) {
        return new SpecSchedule(1, 1, 1, all(DOM), all(MONTHS), all(DOW), zone);
    }

    static SpecSchedule annual(ZoneId zone) {
        return new SpecSchedule(1, 1, 1, 1L << 1, 1L << 1, all(DOW), zone);
    }

    @Test
    void testParseSchedule() {
        assertThat(CronParser.parseStandard("5 * * * *", LOCAL)).isEqualTo(every5min(LOCAL));
        assertThat(CronParser.parseStandard("CRON_TZ=UTC  5 * * * *", TOKYO)).isEqualTo(every5min(ZoneOffset.UTC));
        assertThat(CronParser.parseStandard("CRON_TZ=Asia/Tokyo 5 * * * *", LOCAL))
                .isEqualTo(every5min(TOKYO));
        assertThat(CronParser.parseStandard("@every 5m", LOCAL))
                .isEqualTo(new ConstantDelaySchedule(Duration.ofMinutes(5)));
        assertThat(CronParser.parseStandard("@midnight", LOCAL)).isEqualTo(midnight(LOCAL));
        assertThat(CronParser.parseStandard("TZ=UTC  @midnight", TOKYO)).isEqualTo(midnight(ZoneOffset.UTC));
        assertThat(CronParser.parseStandard("TZ=Asia/Tokyo @midnight", LOCAL)).isEqualTo(midnight(TOKYO));
        assertThat(CronParser.parseStandard("@yearly", LOCAL)).isEqualTo(annual(LOCAL));
        assertThat(CronParser.parseStandard("@annually", LOCAL)).isEqualTo(annual(LOCAL));
        // "* 5 * * * *" (every second of minute 5) has no five-field form.
    }

    @Test
    void testStandardSpecSchedule() {
        assertThat(CronParser.parseStandard("5 * * * *", LOCAL))
                .isEqualTo(new SpecSchedule(1, 1L << 5, all(HOURS), all(DOM), all(MONTHS), all(DOW), LOCAL));
        assertThat(CronParser.parseStandard("@every 5m", LOCAL))
                .isEqualTo(new ConstantDelaySchedule(Duration.ofMinutes(5)));
        assertThatThrownBy(() -> CronParser.parseStandard("5 j * * *", LOCAL))
                .hasMessageContaining("failed to parse int from");
        assertThatThrownBy(() -> CronParser.parseStandard("* * * *", LOCAL))
                .hasMessageContaining("expected exactly 5 fields");
    }

    /** spec_test.go TestErrors and TestSlash0NoHang. */
    @Test
    void testErrors() {
        for (String spec :
                List.of("xyz", "60 0 * * *", "0 60 * * *", "0 0 * * XYZ", "TZ=America/New_York 15/0 * * * *")) {
            assertThatThrownBy(() -> CronParser.parseStandard(spec, LOCAL))
                    .as(spec)
                    .isInstanceOf(ScheduleException.class);
        }
    }

    @Test
    void messagesAreRobfigs() {
        assertThatThrownBy(() -> CronParser.parseStandard("error schedule", LOCAL))
                .hasMessage("expected exactly 5 fields, found 2: [error schedule]");
        assertThatThrownBy(() -> CronParser.parseStandard("70 * * * *", LOCAL))
                .hasMessage("end of range (70) above maximum (59): 70");
        assertThatThrownBy(() -> CronParser.parseStandard("* * 0 * *", LOCAL))
                .hasMessage("beginning of range (0) below minimum (1): 0");
        assertThatThrownBy(() -> CronParser.parseStandard("TZ=Mars/Olympus * * * * *", LOCAL))
                .hasMessage("provided bad location Mars/Olympus: unknown time zone Mars/Olympus");
        assertThatThrownBy(() -> CronParser.parseStandard("x * * * *", LOCAL))
                .hasMessage("failed to parse int from x: strconv.Atoi: parsing \"x\": invalid syntax");
        assertThatThrownBy(() -> CronParser.parseStandard("*/99999999999999999999 * * * *", LOCAL))
                .hasMessageContaining("value out of range");
        assertThatThrownBy(() -> CronParser.parseStandard("TZ=UTC", LOCAL))
                .hasMessageContaining("no schedule after the time zone");
    }

    @Test
    void goQuirksAreKept() {
        // Names are case-insensitive, ? is *, empty list items are skipped, a huge step keeps the start only.
        assertThat(CronParser.parseStandard("0 0 * JAN,,Feb Sun-sat", LOCAL))
                .isEqualTo(new SpecSchedule(1, 1, 1, all(DOM), 1L << 1 | 1L << 2, 0x7f, LOCAL));
        assertThat(CronParser.parseStandard("? ? ? ? ?", LOCAL))
                .isEqualTo(new SpecSchedule(1, all(MINUTES), all(HOURS), all(DOM), all(MONTHS), all(DOW), LOCAL));
        assertThat(((SpecSchedule) CronParser.parseStandard("1/9223372036854775807 * * * *", LOCAL)).minute())
                .isEqualTo(1L << 1);
        // @every rounds down to the second, and up to one second.
        assertThat(CronParser.parseStandard("@every 1m30.5s", LOCAL))
                .isEqualTo(new ConstantDelaySchedule(Duration.ofSeconds(90)));
        assertThat(CronParser.parseStandard("@every 10ms", LOCAL))
                .isEqualTo(new ConstantDelaySchedule(Duration.ofSeconds(1)));
        assertThatThrownBy(() -> CronParser.parseStandard("@every  1h", LOCAL))
                .hasMessageContaining("failed to parse duration");
        assertThatThrownBy(() -> CronParser.parseStandard("@daily ", LOCAL))
                .hasMessageContaining("unrecognized descriptor");
        assertThatThrownBy(() -> CronParser.parseStandard("@every 9999999999999h", LOCAL))
                .hasMessageContaining("failed to parse duration");
    }

    @Test
    void neverFiringSchedulesAreNamed() {
        assertThat(((SpecSchedule) CronParser.parseStandard("0 0 30 2 *", LOCAL)).neverFires())
                .contains("none of its months");
        assertThat(((SpecSchedule) CronParser.parseStandard("0 0 31 4,6 *", LOCAL)).neverFires())
                .isNotNull();
        assertThat(((SpecSchedule) CronParser.parseStandard(", * * * *", LOCAL)).neverFires())
                .contains("minute field");
        assertThat(((SpecSchedule) CronParser.parseStandard("0 0 29 2 *", LOCAL)).neverFires())
                .isNull();
        assertThat(((SpecSchedule) CronParser.parseStandard("0 0 30 2 Mon", LOCAL)).neverFires())
                .isNull();
        assertThat(((SpecSchedule) CronParser.parseStandard("0 0 31 * *", LOCAL)).neverFires())
                .isNull();
    }
}
