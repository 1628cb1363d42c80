package io.lahar.core.cron;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/**
 * Volcano's cronjob_controller_util_test.go: TestMostRecentScheduleTime, TestNextScheduleTimeDuration
 * and TestNextScheduleTime, row for row. Volcano's requeue delay is {@code due - now + 100ms};
 * Lahar keeps the time itself and wakes on the first tick at or after it.
 */
class ScheduleTimesTest {

    /** Volcano's topOfTheHour: 2025-03-11T10:00:00Z. */
    static final long TOP = Instant.parse("2025-03-11T10:00:00Z").toEpochMilli();

    static long at(Duration d) {
        return TOP + d.toMillis();
    }

    static Schedule parse(String spec) {
        return CronParser.parseStandard(spec, ZoneOffset.UTC);
    }

    record Row(
            String name,
            String schedule,
            long created,
            Long lastSchedule,
            Long deadline,
            boolean includeSDS,
            long now,
            long earliest,
            Long recent,
            ScheduleTimes.Missed missed,
            boolean wantErr) {}

    @Test
    void testMostRecentScheduleTime() {
        Row[] rows = {
            new Row(
                    "now before next schedule",
                    "0 * * * *",
                    TOP,
                    null,
                    null,
                    false,
                    at(Duration.ofSeconds(30)),
                    TOP,
                    null,
                    ScheduleTimes.Missed.NONE,
                    false),
            new Row(
                    "now just after next schedule",
                    "0 * * * *",
                    TOP,
                    null,
                    null,
                    false,
                    at(Duration.ofMinutes(61)),
                    TOP,
                    at(Duration.ofMinutes(60)),
                    ScheduleTimes.Missed.NONE,
                    false),
            new Row(
                    "missed 5 schedules",
                    "0 * * * *",
                    at(Duration.ofSeconds(10)),
                    null,
                    null,
                    false,
                    at(Duration.ofMinutes(301)),
                    at(Duration.ofSeconds(10)),
                    at(Duration.ofMinutes(300)),
                    ScheduleTimes.Missed.FEW,
                    false),
            new Row(
                    "complex schedule",
                    "30 6-16/4 * * 1-5",
                    TOP,
                    at(Duration.ofMinutes(30)),
                    null,
                    false,
                    at(Duration.ofHours(24).plusMinutes(31)),
                    at(Duration.ofMinutes(30)),
                    at(Duration.ofHours(24).plusMinutes(30)),
                    ScheduleTimes.Missed.FEW,
                    false),
            new Row(
                    "another complex schedule",
                    "30 10,11,12 * * 1-5",
                    TOP,
                    at(Duration.ofMinutes(30)),
                    null,
                    false,
                    at(Duration.ofHours(30).plusMinutes(30)),
                    at(Duration.ofMinutes(30)),
                    null,
                    ScheduleTimes.Missed.FEW,
                    false),
            new Row(
                    "complex schedule with longer diff between executions",
                    "30 6-16/4 * * 1-5",
                    TOP,
                    at(Duration.ofMinutes(30)),
                    null,
                    false,
                    at(Duration.ofHours(96).plusMinutes(31)),
                    at(Duration.ofMinutes(30)),
                    at(Duration.ofHours(76).plusMinutes(30)),
                    ScheduleTimes.Missed.FEW,
                    false),
            new Row(
                    "complex schedule with shorter diff between executions",
                    "30 6-16/4 * * 1-5",
                    TOP,
                    null,
                    null,
                    false,
                    at(Duration.ofHours(24).plusMinutes(31)),
                    TOP,
                    at(Duration.ofHours(24).plusMinutes(30)),
                    ScheduleTimes.Missed.FEW,
                    false),
            new Row(
                    "@every schedule",
                    "@every 1h",
                    at(Duration.ofMinutes(-59)),
                    at(Duration.ofMinutes(1)),
                    10L,
                    false,
                    at(Duration.ofDays(7)),
                    at(Duration.ofMinutes(1)),
                    at(Duration.ofDays(6).plusHours(23).plusMinutes(1)),
                    ScheduleTimes.Missed.MANY,
                    false),
            new Row(
                    "rogue cronjob",
                    "59 23 31 2 *",
                    at(Duration.ofSeconds(10)),
                    null,
                    null,
                    false,
                    at(Duration.ofHours(1)),
                    0,
                    null,
                    ScheduleTimes.Missed.NONE,
                    true),
            new Row(
                    "earliestTime being CreationTimestamp and LastScheduleTime",
                    "0 * * * *",
                    TOP,
                    TOP,
                    null,
                    false,
                    at(Duration.ofSeconds(30)),
                    TOP,
                    null,
                    ScheduleTimes.Missed.NONE,
                    false),
            new Row(
                    "earliestTime being LastScheduleTime",
                    "*/5 * * * *",
                    TOP,
                    at(Duration.ofMinutes(30)),
                    null,
                    false,
                    at(Duration.ofMinutes(31)),
                    at(Duration.ofMinutes(30)),
                    null,
                    ScheduleTimes.Missed.NONE,
                    false),
            new Row(
                    "earliestTime being LastScheduleTime (within StartingDeadlineSeconds)",
                    "*/5 * * * *",
                    TOP,
                    at(Duration.ofMinutes(30)),
                    60L,
                    false,
                    at(Duration.ofMinutes(31)),
                    at(Duration.ofMinutes(30)),
                    null,
                    ScheduleTimes.Missed.NONE,
                    false),
            new Row(
                    "earliestTime being LastScheduleTime (outside StartingDeadlineSeconds)",
                    "*/5 * * * *",
                    TOP,
                    at(Duration.ofMinutes(30)),
                    60L,
                    true,
                    at(Duration.ofMinutes(32)),
                    at(Duration.ofMinutes(31)),
                    null,
                    ScheduleTimes.Missed.NONE,
                    false)
        };
        for (Row r : rows) {
            ScheduleTimes.Recent got = ScheduleTimes.mostRecent(
                    parse(r.schedule()), r.created(), r.lastSchedule(), r.deadline(), r.now(), r.includeSDS());
            if (r.wantErr()) {
                assertThat(got.error()).as(r.name()).isNotNull();
                continue;
            }
            assertThat(got.error()).as(r.name()).isNull();
            assertThat(got.earliest()).as(r.name() + ": earliest").isEqualTo(r.earliest());
            assertThat(got.mostRecent()).as(r.name() + ": most recent").isEqualTo(r.recent());
            assertThat(got.missed()).as(r.name() + ": missed").isEqualTo(r.missed());
        }
    }

    @Test
    void testNextScheduleTimeDuration() {
        Object[][] rows = {
            {
                "complex schedule skipping weekend",
                "30 6-16/4 * * 1-5",
                at(Duration.ofMinutes(30)),
                at(Duration.ofHours(24).plusMinutes(31)),
                Duration.ofHours(3).plusMinutes(59)
            },
            {
                "another complex schedule skipping weekend",
                "30 10,11,12 * * 1-5",
                at(Duration.ofMinutes(30)),
                at(Duration.ofHours(30).plusMinutes(30)),
                Duration.ofHours(18)
            },
            {
                "once a week cronjob, missed two runs",
                "0 12 * * 2",
                at(Duration.ofHours(2)),
                at(Duration.ofDays(19).plusHours(1).plusMinutes(30)),
                Duration.ofHours(48).plusMinutes(30)
            },
            {"no previous run of a cronjob", "0 12 * * 3", null, at(Duration.ofHours(6)), Duration.ofHours(20)}
        };
        for (Object[] r : rows) {
            long now = (Long) r[3];
            Long due = ScheduleTimes.due(parse((String) r[1]), TOP, (Long) r[2], now);
            assertThat(Duration.ofMillis(due - now)).as((String) r[0]).isEqualTo(r[4]);
        }
    }

    /** TestNextScheduleTime's eight cases, on the hourly schedule "0 * * * ?". */
    @Test
    void testNextScheduleTime() {
        Schedule hourly = parse("0 * * * ?");
        long t1 = TOP;
        long t2 = at(Duration.ofHours(1));
        // 1: no known start times, and none needed yet.
        assertThat(scheduled(hourly, t1 - 600_000, null, null, t1 - 420_000)).isNull();
        // 2: no known start times, and one needed.
        assertThat(scheduled(hourly, t1 - 600_000, null, null, t1 + 2_000)).isEqualTo(t1);
        // 3: known LastScheduleTime, no start needed.
        assertThat(scheduled(hourly, t1 - 600_000, t1, null, t1 + 120_000)).isNull();
        // 4: known LastScheduleTime, a start needed.
        assertThat(scheduled(hourly, t1 - 600_000, t1, null, t2 + 300_000)).isEqualTo(t2);
        // 5: known LastScheduleTime, two starts needed: the latest.
        assertThat(scheduled(hourly, t1 - 7_200_000, t1 - 3_600_000, null, t2 + 300_000))
                .isEqualTo(t2);
        // 6: now is way ahead of the last start time, and there is no deadline.
        assertThat(scheduled(
                        hourly,
                        t1 - 7_200_000,
                        t1 - 3_600_000,
                        null,
                        t2 + Duration.ofDays(10).toMillis()))
                .isNotNull();
        // 7: now is way ahead of the last start time, with a short deadline.
        assertThat(scheduled(
                        hourly,
                        t1 - 7_200_000,
                        t1 - 3_600_000,
                        7200L,
                        t2 + Duration.ofDays(10).toMillis()))
                .isNotNull();
        // 8: the error of a rogue schedule comes up.
        ScheduleTimes.Recent rogue =
                ScheduleTimes.mostRecent(parse("59 23 31 2 *"), t1 + 10_000, null, null, at(Duration.ofHours(1)), true);
        assertThat(rogue.mostRecent()).isNull();
        assertThat(rogue.error()).isNotNull();
    }

    private static Long scheduled(Schedule s, long created, Long last, Long deadline, long now) {
        ScheduleTimes.Recent r = ScheduleTimes.mostRecent(s, created, last, deadline, now, true);
        return r.mostRecent() == null || r.mostRecent() > now ? null : r.mostRecent();
    }
}
