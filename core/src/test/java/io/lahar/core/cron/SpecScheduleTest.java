package io.lahar.core.cron;

import static io.lahar.core.cron.GoTimes.time;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * robfig/cron v3.0.1's spec_test.go (TestActivation, TestNext, TestNextWithTz) and
 * constantdelay_test.go (TestConstantDelayNext): when a schedule next fires, daylight saving
 * transitions included.
 */
class SpecScheduleTest {

    @Test
    void testActivation() {
        String[][] rows = {
            // Every fifteen minutes.
            {"Mon Jul 9 15:00 2012", "0/15 * * * *", "true"},
            {"Mon Jul 9 15:45 2012", "0/15 * * * *", "true"},
            {"Mon Jul 9 15:40 2012", "0/15 * * * *", "false"},
            // Every fifteen minutes, starting at 5 minutes.
            {"Mon Jul 9 15:05 2012", "5/15 * * * *", "true"},
            {"Mon Jul 9 15:20 2012", "5/15 * * * *", "true"},
            {"Mon Jul 9 15:50 2012", "5/15 * * * *", "true"},
            // Named months
            {"Sun Jul 15 15:00 2012", "0/15 * * Jul *", "true"},
            {"Sun Jul 15 15:00 2012", "0/15 * * Jun *", "false"},
            // Everything set.
            {"Sun Jul 15 08:30 2012", "30 08 ? Jul Sun", "true"},
            {"Sun Jul 15 08:30 2012", "30 08 15 Jul ?", "true"},
            {"Mon Jul 16 08:30 2012", "30 08 ? Jul Sun", "false"},
            {"Mon Jul 16 08:30 2012", "30 08 15 Jul ?", "false"},
            // Predefined schedules
            {"Mon Jul 9 15:00 2012", "@hourly", "true"},
            {"Mon Jul 9 15:04 2012", "@hourly", "false"},
            {"Mon Jul 9 15:00 2012", "@daily", "false"},
            {"Mon Jul 9 00:00 2012", "@daily", "true"},
            {"Mon Jul 9 00:00 2012", "@weekly", "false"},
            {"Sun Jul 8 00:00 2012", "@weekly", "true"},
            {"Sun Jul 8 01:00 2012", "@weekly", "false"},
            {"Sun Jul 8 00:00 2012", "@monthly", "false"},
            {"Sun Jul 1 00:00 2012", "@monthly", "true"},
            // If both day fields are restricted, then only one needs to match.
            {"Sun Jul 15 00:00 2012", "* * 1,15 * Sun", "true"},
            {"Fri Jun 15 00:00 2012", "* * 1,15 * Sun", "true"},
            {"Wed Aug 1 00:00 2012", "* * 1,15 * Sun", "true"},
            {"Sun Jul 15 00:00 2012", "* * */10 * Sun", "true"},
            // However, if one has a star, then both need to match.
            {"Sun Jul 15 00:00 2012", "* * * * Mon", "false"},
            {"Mon Jul 9 00:00 2012", "* * 1,15 * *", "false"},
            {"Sun Jul 15 00:00 2012", "* * 1,15 * *", "true"},
            {"Sun Jul 15 00:00 2012", "* * */2 * Sun", "true"}
        };
        for (String[] r : rows) {
            Schedule s = CronParser.parseStandard(r[1], ZoneOffset.UTC);
            Instant expected = time(r[0]);
            Instant actual = s.next(expected.minusSeconds(1));
            assertThat(expected.equals(actual)).as(r[1] + " on " + r[0]).isEqualTo(Boolean.parseBoolean(r[2]));
        }
    }

    /**
     * TestNext's rows are six-field specs; those whose seconds field is 0 are the standard spec of
     * the other five. The five rows with seconds {@code 15/35} have no five-field form.
     */
    @Test
    void testNext() {
        String[][] rows = {
            {"Mon Jul 9 14:45 2012", "0 0/15 * * * *", "Mon Jul 9 15:00 2012"},
            {"Mon Jul 9 14:59 2012", "0 0/15 * * * *", "Mon Jul 9 15:00 2012"},
            {"Mon Jul 9 14:59:59 2012", "0 0/15 * * * *", "Mon Jul 9 15:00 2012"},
            {"Mon Jul 9 15:45 2012", "0 20-35/15 * * * *", "Mon Jul 9 16:20 2012"},
            {"Mon Jul 9 23:46 2012", "0 */15 * * * *", "Tue Jul 10 00:00 2012"},
            {"Mon Jul 9 23:45 2012", "0 20-35/15 * * * *", "Tue Jul 10 00:20 2012"},
            {"Mon Jul 9 23:35:51 2012", "15/35 20-35/15 * * * *", "Tue Jul 10 00:20:15 2012"},
            {"Mon Jul 9 23:35:51 2012", "15/35 20-35/15 1/2 * * *", "Tue Jul 10 01:20:15 2012"},
            {"Mon Jul 9 23:35:51 2012", "15/35 20-35/15 10-12 * * *", "Tue Jul 10 10:20:15 2012"},
            {"Mon Jul 9 23:35:51 2012", "15/35 20-35/15 1/2 */2 * *", "Thu Jul 11 01:20:15 2012"},
            {"Mon Jul 9 23:35:51 2012", "15/35 20-35/15 * 9-20 * *", "Wed Jul 10 00:20:15 2012"},
            {"Mon Jul 9 23:35:51 2012", "15/35 20-35/15 * 9-20 Jul *", "Wed Jul 10 00:20:15 2012"},
            {"Mon Jul 9 23:35 2012", "0 0 0 9 Apr-Oct ?", "Thu Aug 9 00:00 2012"},
            {"Mon Jul 9 23:35 2012", "0 0 0 */5 Apr,Aug,Oct Mon", "Tue Aug 1 00:00 2012"},
            {"Mon Jul 9 23:35 2012", "0 0 0 */5 Oct Mon", "Mon Oct 1 00:00 2012"},
            {"Mon Jul 9 23:35 2012", "0 0 0 * Feb Mon", "Mon Feb 4 00:00 2013"},
            {"Mon Jul 9 23:35 2012", "0 0 0 * Feb Mon/2", "Fri Feb 1 00:00 2013"},
            {"Mon Dec 31 23:59:45 2012", "0 * * * * *", "Tue Jan 1 00:00:00 2013"},
            {"Mon Jul 9 23:35 2012", "0 0 0 29 Feb ?", "Mon Feb 29 00:00 2016"},
            {"2012-03-11T00:00:00-0500", "TZ=America/New_York 0 30 2 11 Mar ?", "2013-03-11T02:30:00-0400"},
            {"2012-03-11T00:00:00-0500", "TZ=America/New_York 0 0 * * * ?", "2012-03-11T01:00:00-0500"},
            {"2012-03-11T01:00:00-0500", "TZ=America/New_York 0 0 * * * ?", "2012-03-11T03:00:00-0400"},
            {"2012-03-11T03:00:00-0400", "TZ=America/New_York 0 0 * * * ?", "2012-03-11T04:00:00-0400"},
            {"2012-03-11T04:00:00-0400", "TZ=America/New_York 0 0 * * * ?", "2012-03-11T05:00:00-0400"},
            {"2012-03-11T00:00:00-0500", "CRON_TZ=America/New_York 0 0 * * * ?", "2012-03-11T01:00:00-0500"},
            {"2012-03-11T01:00:00-0500", "CRON_TZ=America/New_York 0 0 * * * ?", "2012-03-11T03:00:00-0400"},
            {"2012-03-11T03:00:00-0400", "CRON_TZ=America/New_York 0 0 * * * ?", "2012-03-11T04:00:00-0400"},
            {"2012-03-11T04:00:00-0400", "CRON_TZ=America/New_York 0 0 * * * ?", "2012-03-11T05:00:00-0400"},
            {"2012-03-11T00:00:00-0500", "TZ=America/New_York 0 0 1 * * ?", "2012-03-11T01:00:00-0500"},
            {"2012-03-11T01:00:00-0500", "TZ=America/New_York 0 0 1 * * ?", "2012-03-12T01:00:00-0400"},
            {"2012-03-11T00:00:00-0500", "TZ=America/New_York 0 0 2 * * ?", "2012-03-12T02:00:00-0400"},
            {"2012-11-04T00:00:00-0400", "TZ=America/New_York 0 30 2 04 Nov ?", "2012-11-04T02:30:00-0500"},
            {"2012-11-04T01:45:00-0400", "TZ=America/New_York 0 30 1 04 Nov ?", "2012-11-04T01:30:00-0500"},
            {"2012-11-04T00:00:00-0400", "TZ=America/New_York 0 0 * * * ?", "2012-11-04T01:00:00-0400"},
            {"2012-11-04T01:00:00-0400", "TZ=America/New_York 0 0 * * * ?", "2012-11-04T01:00:00-0500"},
            {"2012-11-04T01:00:00-0500", "TZ=America/New_York 0 0 * * * ?", "2012-11-04T02:00:00-0500"},
            {"2012-11-04T00:00:00-0400", "TZ=America/New_York 0 0 1 * * ?", "2012-11-04T01:00:00-0400"},
            {"2012-11-04T01:00:00-0400", "TZ=America/New_York 0 0 1 * * ?", "2012-11-04T01:00:00-0500"},
            {"2012-11-04T01:00:00-0500", "TZ=America/New_York 0 0 1 * * ?", "2012-11-05T01:00:00-0500"},
            {"2012-11-04T00:00:00-0400", "TZ=America/New_York 0 0 2 * * ?", "2012-11-04T02:00:00-0500"},
            {"2012-11-04T02:00:00-0500", "TZ=America/New_York 0 0 2 * * ?", "2012-11-05T02:00:00-0500"},
            {"2012-11-04T00:00:00-0400", "TZ=America/New_York 0 0 3 * * ?", "2012-11-04T03:00:00-0500"},
            {"2012-11-04T03:00:00-0500", "TZ=America/New_York 0 0 3 * * ?", "2012-11-05T03:00:00-0500"},
            {"TZ=America/New_York 2012-11-04T00:00:00-0400", "0 0 * * * ?", "2012-11-04T01:00:00-0400"},
            {"TZ=America/New_York 2012-11-04T01:00:00-0400", "0 0 * * * ?", "2012-11-04T01:00:00-0500"},
            {"TZ=America/New_York 2012-11-04T01:00:00-0500", "0 0 * * * ?", "2012-11-04T02:00:00-0500"},
            {"TZ=America/New_York 2012-11-04T00:00:00-0400", "0 0 1 * * ?", "2012-11-04T01:00:00-0400"},
            {"TZ=America/New_York 2012-11-04T01:00:00-0400", "0 0 1 * * ?", "2012-11-04T01:00:00-0500"},
            {"TZ=America/New_York 2012-11-04T01:00:00-0500", "0 0 1 * * ?", "2012-11-05T01:00:00-0500"},
            {"TZ=America/New_York 2012-11-04T00:00:00-0400", "0 0 2 * * ?", "2012-11-04T02:00:00-0500"},
            {"TZ=America/New_York 2012-11-04T02:00:00-0500", "0 0 2 * * ?", "2012-11-05T02:00:00-0500"},
            {"TZ=America/New_York 2012-11-04T00:00:00-0400", "0 0 3 * * ?", "2012-11-04T03:00:00-0500"},
            {"TZ=America/New_York 2012-11-04T03:00:00-0500", "0 0 3 * * ?", "2012-11-05T03:00:00-0500"},
            // Unsatisfiable
            {"Mon Jul 9 23:35 2012", "0 0 0 30 Feb ?", ""},
            {"Mon Jul 9 23:35 2012", "0 0 0 31 Apr ?", ""},
            // Monthly job
            {"TZ=America/New_York 2012-11-04T00:00:00-0400", "0 0 3 3 * ?", "2012-12-03T03:00:00-0500"},
            // Midnight that does not exist (robfig/cron#157).
            {"2018-10-17T05:00:00-0400", "TZ=America/Sao_Paulo 0 0 9 10 * ?", "2018-11-10T06:00:00-0500"},
            {"2018-02-14T05:00:00-0500", "TZ=America/Sao_Paulo 0 0 9 22 * ?", "2018-02-22T07:00:00-0500"}
        };
        List<String> withSeconds = new ArrayList<>();
        int checked = 0;
        for (String[] r : rows) {
            String spec = r[1];
            String prefix = "";
            if (spec.contains("TZ=")) {
                prefix = spec.substring(0, spec.indexOf(' ') + 1);
                spec = spec.substring(prefix.length());
            }
            if (!spec.startsWith("0 ")) {
                withSeconds.add(r[1]);
                continue;
            }
            Schedule s = CronParser.parseStandard(prefix + spec.substring(2), GoTimes.zone(r[0]));
            assertThat(s.next(time(r[0]))).as(r[0] + " \"" + r[1] + "\"").isEqualTo(time(r[2]));
            checked++;
        }
        assertThat(withSeconds).hasSize(6);
        assertThat(checked).isEqualTo(rows.length - 6);
    }

    /** TestNextWithTz: a schedule without a zone runs in the zone of the time it is given (Go's Local). */
    @Test
    void testNextWithTz() {
        String[][] rows = {
            {"2016-01-03T13:09:03+0530", "14 14 * * *", "2016-01-03T14:14:00+0530"},
            {"2016-01-03T04:09:03+0530", "14 14 * * ?", "2016-01-03T14:14:00+0530"},
            {"2016-01-03T14:09:03+0530", "14 14 * * *", "2016-01-03T14:14:00+0530"},
            {"2016-01-03T14:00:00+0530", "14 14 * * ?", "2016-01-03T14:14:00+0530"}
        };
        for (String[] r : rows) {
            Schedule s = CronParser.parseStandard(r[1], ZoneOffset.ofHoursMinutes(5, 30));
            assertThat(s.next(time(r[0]))).as(r[0]).isEqualTo(time(r[2]));
        }
    }

    @Test
    void testConstantDelayNext() {
        Object[][] rows = {
            {"Mon Jul 9 14:45 2012", Duration.ofMinutes(15).plusNanos(50), "Mon Jul 9 15:00 2012"},
            {"Mon Jul 9 14:59 2012", Duration.ofMinutes(15), "Mon Jul 9 15:14 2012"},
            {"Mon Jul 9 14:59:59 2012", Duration.ofMinutes(15), "Mon Jul 9 15:14:59 2012"},
            {"Mon Jul 9 15:45 2012", Duration.ofMinutes(35), "Mon Jul 9 16:20 2012"},
            {"Mon Jul 9 23:46 2012", Duration.ofMinutes(14), "Tue Jul 10 00:00 2012"},
            {"Mon Jul 9 23:45 2012", Duration.ofMinutes(35), "Tue Jul 10 00:20 2012"},
            {"Mon Jul 9 23:35:51 2012", Duration.ofMinutes(44).plusSeconds(24), "Tue Jul 10 00:20:15 2012"},
            {"Mon Jul 9 23:35:51 2012", Duration.ofHours(25).plusMinutes(44).plusSeconds(24), "Thu Jul 11 01:20:15 2012"
            },
            {"Mon Jul 9 23:35 2012", Duration.ofDays(91).plusMinutes(25), "Thu Oct 9 00:00 2012"},
            {"Mon Dec 31 23:59:45 2012", Duration.ofSeconds(15), "Tue Jan 1 00:00:00 2013"},
            {"Mon Jul 9 14:45 2012", Duration.ofMinutes(15).plusNanos(50), "Mon Jul 9 15:00 2012"},
            {"Mon Jul 9 14:45:00 2012", Duration.ofMillis(15), "Mon Jul 9 14:45:01 2012"},
            {"Mon Jul 9 14:45:00.005 2012", Duration.ofMinutes(15), "Mon Jul 9 15:00 2012"},
            {"Mon Jul 9 14:45:00.005 2012", Duration.ofMinutes(15).plusNanos(50), "Mon Jul 9 15:00 2012"}
        };
        for (Object[] r : rows) {
            Instant actual = ConstantDelaySchedule.every((Duration) r[1]).next(time((String) r[0]));
            assertThat(actual).as(r[0] + " " + r[1]).isEqualTo(time((String) r[2]));
        }
    }
}
