package io.lahar.core.cron;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.api.CronJob;
import io.lahar.core.api.Job;
import io.lahar.core.api.JobPhase;
import io.lahar.core.api.ObjectMeta;
import io.lahar.core.api.OwnerReference;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Volcano's TestSyncCronJob (cronjob_controller_test.go), row for row, on the pure controller:
 * the CronJob {@code vccronjob} in {@code volcano}, created at 10:00 with {@code *}{@code /5 * * * *},
 * its jobs (in Volcano's job lister = the jobs Lahar's state knows; {@code active} = its
 * status.active), a tick at {@code now}. Volcano's requeue delay is {@code due - now + 100ms};
 * "update status" is a change of Volcano's status fields.
 *
 * <p>Four rows test Kubernetes API plumbing that Lahar does not have, and are listed in
 * {@link #NOT_APPLICABLE} with what stands in for them.
 */
class SyncCronJobTest {

    static final long TEN = Instant.parse("2025-03-11T10:00:00Z").toEpochMilli();
    static final long TOMORROW_TEN = Instant.parse("2025-03-12T10:00:00Z").toEpochMilli();
    static final long MIN = 60_000;
    static final long HOUR = 60 * MIN;
    static final long SIXTY_SECONDS_DEAD = 60;
    static final long THREE_MINUTES_DEAD = 180;
    static final long LONG_DEAD = 60060;
    static final Duration DELTA = Duration.ofMillis(100);

    /** The rows of Volcano's table that exercise API plumbing, and what covers the case in Lahar. */
    static final Map<String, String> NOT_APPLICABLE = Map.of(
            "First run, is time, job exist and done, Allow",
            "the API server has a job the informer has not seen yet: Lahar's state is its own log, it lags nothing",
            "First run, is time, job exist but not owned by this CronJob, Allow",
            "a foreign job of that name: job admission refuses the create (already exists), see CronJobControllerTest#jobAdmissionRefusesTheJob",
            "First run, is time, nameSpace is terminating",
            "Lahar has no namespace lifecycle",
            "not first run, pre active, is time, Replace, get job failed",
            "an API GET error: the active jobs are in Lahar's state, nothing is fetched");

    record Cj(
            String schedule,
            String timeZone,
            boolean suspend,
            String concurrency,
            Long deadline,
            Integer successfulLimit,
            Integer failedLimit) {
        static Cj of(String concurrency) {
            return new Cj(null, null, false, concurrency, null, null, null);
        }

        Cj schedule(String s) {
            return new Cj(s, timeZone, suspend, concurrency, deadline, successfulLimit, failedLimit);
        }

        Cj tz(String z) {
            return new Cj(schedule, z, suspend, concurrency, deadline, successfulLimit, failedLimit);
        }

        Cj suspended() {
            return new Cj(schedule, timeZone, true, concurrency, deadline, successfulLimit, failedLimit);
        }

        Cj deadline(long d) {
            return new Cj(schedule, timeZone, suspend, concurrency, d, successfulLimit, failedLimit);
        }

        Cj successfulLimit(int l) {
            return new Cj(schedule, timeZone, suspend, concurrency, deadline, l, failedLimit);
        }
    }

    /** A job of Volcano's table: its phase, scheduled (and creation) time, whether listed and active. */
    record J(JobPhase status, long time, boolean inLister, boolean active, long processTime) {}

    record Expect(
            Duration requeueAfter,
            boolean updateStatus,
            boolean error,
            Long lastScheduleTime,
            int inActive,
            int events,
            Long lastSuccessTime,
            int created,
            int deleted) {}

    record Row(String name, long now, Cj cronjob, List<J> jobs, Long lastScheduleTime, Expect expect) {}

    static J job(JobPhase s, long t, boolean inLister, boolean active) {
        return new J(s, t, inLister, active, MIN);
    }

    static Expect expect(
            Duration requeue,
            boolean update,
            Long last,
            int active,
            int events,
            Long success,
            int created,
            int deleted) {
        return new Expect(requeue, update, false, last, active, events, success, created, deleted);
    }

    static Duration requeue(Duration d) {
        return d.plus(DELTA);
    }

    static Duration min(long m) {
        return requeue(Duration.ofMinutes(m));
    }

    static final JobPhase RUNNING = JobPhase.Running;
    static final JobPhase COMPLETED = JobPhase.Completed;
    static final JobPhase FAILED = JobPhase.Failed;

    static List<Row> rows() {
        long five = TEN + 5 * MIN;
        long three = TEN + 3 * MIN;
        long seven = TEN + 7 * MIN;
        long tenHours = TEN + 10 * HOUR;
        return List.of(
                new Row(
                        "Abnormal situation, error schedule",
                        TEN,
                        Cj.of("Allow").schedule("wrong shcedlue"),
                        List.of(),
                        null,
                        new Expect(null, false, true, null, 0, 0, null, 0, 0)),
                new Row(
                        "Abnormal situation, error TimeZone",
                        TEN,
                        Cj.of("Allow").tz("error TZ"),
                        List.of(),
                        null,
                        new Expect(null, false, true, null, 0, 1, null, 0, 0)),
                new Row(
                        "Abnormal situation, suspend",
                        TEN,
                        Cj.of("Allow").suspended(),
                        List.of(),
                        null,
                        expect(null, false, null, 0, 0, null, 0, 0)),
                new Row(
                        "First run, is not time, Allow",
                        three,
                        Cj.of("Allow"),
                        List.of(),
                        null,
                        expect(min(2), false, null, 0, 0, null, 0, 0)),
                new Row(
                        "First run, is not time, Forbid",
                        three,
                        Cj.of("Forbid"),
                        List.of(),
                        null,
                        expect(min(2), false, null, 0, 0, null, 0, 0)),
                new Row(
                        "First run, is not time, Replace",
                        three,
                        Cj.of("Replace"),
                        List.of(),
                        null,
                        expect(min(2), false, null, 0, 0, null, 0, 0)),
                new Row(
                        "First run, is not time in TZ",
                        TEN,
                        Cj.of("Allow").schedule("0 10 * * *").tz("Pacific/Honolulu"),
                        List.of(),
                        null,
                        expect(requeue(Duration.ofHours(10)), false, null, 0, 0, null, 0, 0)),
                new Row(
                        "First run, is time, Allow",
                        five,
                        Cj.of("Allow"),
                        List.of(),
                        null,
                        expect(min(5), true, five, 1, 1, null, 1, 0)),
                new Row(
                        "First run, is time, Forbid",
                        five,
                        Cj.of("Forbid"),
                        List.of(),
                        null,
                        expect(min(5), true, five, 1, 1, null, 1, 0)),
                // Volcano's row of this name runs Forbid too.
                new Row(
                        "First run, is time, Replace",
                        five,
                        Cj.of("Forbid"),
                        List.of(),
                        null,
                        expect(min(5), true, five, 1, 1, null, 1, 0)),
                new Row(
                        "First run, is time, has startingDeadlineSeconds, Allow",
                        five,
                        Cj.of("Allow").deadline(SIXTY_SECONDS_DEAD),
                        List.of(),
                        null,
                        expect(min(5), true, five, 1, 1, null, 1, 0)),
                new Row(
                        "First run, is time in TZ, Allow",
                        tenHours,
                        Cj.of("Allow").schedule("0 10 * * *").tz("Pacific/Honolulu"),
                        List.of(),
                        null,
                        expect(requeue(Duration.ofHours(24)), true, tenHours, 1, 1, null, 1, 0)),
                new Row(
                        "First run, is time, uses schedule's TZ despite conflict with TimeZone setting",
                        tenHours,
                        new Cj("TZ=UTC 0 20 * * *", "Pacific/Honolulu", false, null, null, null, null),
                        List.of(),
                        null,
                        expect(requeue(Duration.ofHours(24)), true, tenHours, 1, 2, null, 1, 0)),
                new Row(
                        "First run, miss Time, no startingDeadlineSeconds, Allow",
                        seven,
                        Cj.of("Allow"),
                        List.of(),
                        null,
                        expect(min(3), true, five, 1, 1, null, 1, 0)),
                new Row(
                        "First run, miss Time, no miss deadline, Allow",
                        seven,
                        Cj.of("Allow").deadline(THREE_MINUTES_DEAD),
                        List.of(),
                        null,
                        expect(min(3), true, five, 1, 1, null, 1, 0)),
                new Row(
                        "First run, miss deadline, Allow",
                        seven,
                        Cj.of("Allow").deadline(SIXTY_SECONDS_DEAD),
                        List.of(),
                        null,
                        expect(min(3), false, null, 0, 0, null, 0, 0)),
                new Row(
                        "First run, manymiss, no startingDeadlineSeconds, Allow",
                        tenHours,
                        Cj.of("Allow"),
                        List.of(),
                        null,
                        expect(min(5), true, tenHours, 1, 2, null, 1, 0)),
                new Row(
                        "First run, manymiss, has startingDeadlineSeconds, Allow",
                        TOMORROW_TEN,
                        Cj.of("Allow").schedule("* * * * *").deadline(LONG_DEAD),
                        List.of(),
                        null,
                        expect(min(1), true, TOMORROW_TEN, 1, 2, null, 1, 0)),
                new Row(
                        "First run, is time, job in active but not in lister, Allow",
                        five,
                        Cj.of("Allow"),
                        List.of(job(COMPLETED, five, false, true)),
                        null,
                        expect(min(5), true, five, 1, 2, null, 1, 0)),
                new Row(
                        "First run, @every schedule, not time, Allow",
                        five,
                        Cj.of("Allow").schedule("@every 1h"),
                        List.of(),
                        null,
                        expect(min(55), false, null, 0, 0, null, 0, 0)),
                new Row(
                        "First run, @every schedule, is time, Allow",
                        TEN + HOUR,
                        Cj.of("Allow").schedule("@every 1h"),
                        List.of(),
                        null,
                        expect(requeue(Duration.ofHours(1)), true, TEN + HOUR, 1, 1, null, 1, 0)),
                new Row(
                        "First run, @every schedule, is time, miss deadline, Allow",
                        TEN + HOUR + 30 * MIN,
                        Cj.of("Allow").schedule("@every 1h").deadline(SIXTY_SECONDS_DEAD),
                        List.of(),
                        null,
                        expect(min(30), false, null, 0, 0, null, 0, 0)),
                new Row(
                        "First run, @every schedule, is time, no miss deadline, Allow",
                        TEN + HOUR + 30 * MIN,
                        Cj.of("Allow").schedule("@every 1h").deadline(LONG_DEAD),
                        List.of(),
                        null,
                        expect(min(30), true, TEN + HOUR, 1, 1, null, 1, 0)),
                new Row(
                        "not first run, @every schedule, pre all done, is not time, Allow",
                        TEN + 30 * MIN,
                        Cj.of("Allow").schedule("@every 1h").deadline(LONG_DEAD),
                        List.of(job(COMPLETED, TEN, true, false)),
                        null,
                        expect(min(30), true, null, 0, 0, TEN + MIN, 0, 0)),
                new Row(
                        "not first run, @every schedule, pre all done, is time, Allow",
                        TEN + HOUR,
                        Cj.of("Allow").schedule("@every 1h").deadline(LONG_DEAD),
                        List.of(job(COMPLETED, TEN, true, false)),
                        null,
                        expect(requeue(Duration.ofHours(1)), true, TEN + HOUR, 1, 1, TEN + MIN, 1, 0)),
                new Row(
                        "not first run, @every schedule, pre active, is not time, Allow",
                        TEN + 30 * MIN,
                        Cj.of("Allow").schedule("@every 1h").deadline(LONG_DEAD),
                        List.of(job(RUNNING, TEN, true, true)),
                        null,
                        expect(min(30), false, null, 1, 0, null, 0, 0)),
                new Row(
                        "not first run, @every schedule, pre activee all done, is time, Allow",
                        TEN + HOUR,
                        Cj.of("Allow").schedule("@every 1h").deadline(LONG_DEAD),
                        List.of(job(RUNNING, TEN, true, true)),
                        null,
                        expect(requeue(Duration.ofHours(1)), true, TEN + HOUR, 2, 1, null, 1, 0)),
                new Row(
                        "noy first run, successfulJobHistoryLimit is 0",
                        seven,
                        Cj.of("Allow").successfulLimit(0),
                        List.of(job(COMPLETED, five, true, false)),
                        five,
                        expect(min(3), true, five, 0, 1, five + MIN, 0, 1)),
                new Row(
                        "noy first run, successfulJobHistoryLimit is 5",
                        TEN + 22 * MIN,
                        Cj.of("Allow").successfulLimit(5),
                        List.of(
                                job(COMPLETED, five, true, false), job(COMPLETED, five + 5 * MIN, true, false),
                                job(COMPLETED, five + 10 * MIN, true, false),
                                        job(COMPLETED, five + 15 * MIN, true, false)),
                        five + 15 * MIN,
                        expect(min(3), true, five + 15 * MIN, 0, 0, five + 16 * MIN, 0, 0)),
                new Row(
                        "not first run, pre all done, is not time, Allow",
                        three,
                        Cj.of("Allow").deadline(LONG_DEAD),
                        List.of(job(COMPLETED, TEN, true, false)),
                        null,
                        expect(min(2), true, null, 0, 0, TEN + MIN, 0, 0)),
                new Row(
                        "not first run, pre all done, is not time, Forbid",
                        three,
                        Cj.of("Forbid").deadline(LONG_DEAD),
                        List.of(job(COMPLETED, TEN, true, false)),
                        null,
                        expect(min(2), true, null, 0, 0, TEN + MIN, 0, 0)),
                new Row(
                        "not first run, pre all done, is not time, Replace",
                        three,
                        Cj.of("Replace").deadline(LONG_DEAD),
                        List.of(job(COMPLETED, TEN, true, false)),
                        null,
                        expect(min(2), true, null, 0, 0, TEN + MIN, 0, 0)),
                // Volcano's table has two rows of this name; this one with a failed job.
                new Row(
                        "not first run, pre all done, is not time, Replace (failed job)",
                        three,
                        Cj.of("Replace").deadline(LONG_DEAD),
                        List.of(job(FAILED, TEN, true, false)),
                        null,
                        expect(min(2), false, null, 0, 0, null, 0, 0)),
                new Row(
                        "not first run, pre all done, one suc and one fail, is not time, Allow",
                        seven,
                        Cj.of("Allow"),
                        List.of(job(COMPLETED, TEN, true, false), job(FAILED, five, true, false)),
                        five,
                        expect(min(3), true, five, 0, 0, TEN + MIN, 0, 0)),
                new Row(
                        "not first run, pre all done but in active, is not time, Allow",
                        three,
                        Cj.of("Allow"),
                        List.of(job(COMPLETED, TEN, true, true)),
                        null,
                        expect(min(2), true, null, 0, 1, TEN + MIN, 0, 0)),
                new Row(
                        "not first run, pre all done but in active, is not time, Forbid",
                        three,
                        Cj.of("Forbid"),
                        List.of(job(COMPLETED, TEN, true, true)),
                        null,
                        expect(min(2), true, null, 0, 1, TEN + MIN, 0, 0)),
                new Row(
                        "not first run, pre all done but in active, is not time, Replace",
                        three,
                        Cj.of("Replace"),
                        List.of(job(COMPLETED, TEN, true, true)),
                        null,
                        expect(min(2), true, null, 0, 1, TEN + MIN, 0, 0)),
                new Row(
                        "not first run, pre all done, is time, Allow",
                        five,
                        Cj.of("Allow"),
                        List.of(job(COMPLETED, TEN, true, false)),
                        null,
                        expect(min(5), true, five, 1, 1, TEN + MIN, 1, 0)),
                new Row(
                        "not first run, pre all done, is time, Forbid",
                        five,
                        Cj.of("Forbid"),
                        List.of(job(COMPLETED, TEN, true, false)),
                        null,
                        expect(min(5), true, five, 1, 1, TEN + MIN, 1, 0)),
                new Row(
                        "not first run, pre all done, is time, Replace",
                        five,
                        Cj.of("Replace"),
                        List.of(job(COMPLETED, TEN, true, false)),
                        null,
                        expect(min(5), true, five, 1, 1, TEN + MIN, 1, 0)),
                new Row(
                        "not first run, pre all done, is time, suspend",
                        five,
                        Cj.of("Allow").suspended(),
                        List.of(job(COMPLETED, TEN, true, false)),
                        null,
                        expect(null, true, null, 0, 0, TEN + MIN, 0, 0)),
                new Row(
                        "not first run, pre all done fail, is time, Allow",
                        five,
                        Cj.of("Allow"),
                        List.of(job(FAILED, TEN, true, false)),
                        null,
                        expect(min(5), true, five, 1, 1, null, 1, 0)),
                new Row(
                        "not first run, pre all done, one suc and one fail, is time, Allow",
                        TEN + 15 * MIN,
                        Cj.of("Allow"),
                        List.of(job(COMPLETED, TEN, true, false), job(FAILED, five, true, false)),
                        null,
                        expect(min(5), true, TEN + 15 * MIN, 1, 1, TEN + MIN, 1, 0)),
                new Row(
                        "not first run, pre all done but in active, is time, Allow",
                        five,
                        Cj.of("Allow"),
                        List.of(job(COMPLETED, TEN, true, true)),
                        null,
                        expect(min(5), true, five, 1, 2, TEN + MIN, 1, 0)),
                new Row(
                        "not first run, pre all done but in active, is time, Forbid",
                        five,
                        Cj.of("Forbid"),
                        List.of(job(COMPLETED, TEN, true, true)),
                        null,
                        expect(min(5), true, five, 1, 2, TEN + MIN, 1, 0)),
                new Row(
                        "not first run, pre all done but in active, is time, Replace",
                        five,
                        Cj.of("Replace"),
                        List.of(job(COMPLETED, TEN, true, true)),
                        null,
                        expect(min(5), true, five, 1, 2, TEN + MIN, 1, 0)),
                new Row(
                        "not first run, pre all done, job exist and in active, is time, Allow",
                        five,
                        Cj.of("Allow"),
                        List.of(job(RUNNING, five, true, true), job(COMPLETED, TEN, true, false)),
                        null,
                        expect(min(5), true, null, 1, 0, TEN + MIN, 0, 0)),
                new Row(
                        "not first run, pre all done, miss deadline, Allow",
                        seven,
                        Cj.of("Allow").deadline(SIXTY_SECONDS_DEAD),
                        List.of(job(COMPLETED, TEN, true, false)),
                        null,
                        expect(min(3), true, null, 0, 0, TEN + MIN, 0, 0)),
                new Row(
                        "not first run, pre all done, no miss deadline, Allow",
                        seven,
                        Cj.of("Allow").deadline(THREE_MINUTES_DEAD),
                        List.of(job(COMPLETED, TEN, true, false)),
                        null,
                        expect(min(3), true, five, 1, 1, TEN + MIN, 1, 0)),
                new Row(
                        "not first run, pre active, not time, Allow",
                        seven,
                        Cj.of("Allow"),
                        List.of(job(RUNNING, five, true, true)),
                        five,
                        expect(min(3), false, five, 1, 0, null, 0, 0)),
                new Row(
                        "not first run, pre active, not time, Forbid",
                        seven,
                        Cj.of("Forbid"),
                        List.of(job(RUNNING, five, true, true)),
                        five,
                        expect(min(3), false, five, 1, 0, null, 0, 0)),
                new Row(
                        "not first run, pre active, not time, Replace",
                        seven,
                        Cj.of("Replace"),
                        List.of(job(RUNNING, five, true, true)),
                        five,
                        expect(min(3), false, five, 1, 0, null, 0, 0)),
                new Row(
                        "not first run, pre active, not time, suspend",
                        seven,
                        Cj.of("Allow"),
                        List.of(job(RUNNING, five, true, true)),
                        five,
                        expect(min(3), false, five, 1, 0, null, 0, 0)),
                new Row(
                        "not first run, pre active, is time, Allow",
                        TEN + 10 * MIN,
                        Cj.of("Allow"),
                        List.of(job(RUNNING, five, true, true)),
                        five,
                        expect(min(5), true, TEN + 10 * MIN, 2, 1, null, 1, 0)),
                new Row(
                        "not first run, pre active, is time, Forbid",
                        TEN + 10 * MIN,
                        Cj.of("Forbid"),
                        List.of(job(RUNNING, five, true, true)),
                        five,
                        expect(min(5), false, five, 1, 1, null, 0, 0)),
                new Row(
                        "not first run, pre active, is time, Replace",
                        TEN + 10 * MIN,
                        Cj.of("Replace"),
                        List.of(job(RUNNING, five, true, true)),
                        five,
                        expect(min(5), true, TEN + 10 * MIN, 1, 3, null, 1, 1)),
                new Row(
                        "not first run, pre active, is time, suspend",
                        TEN + 10 * MIN,
                        Cj.of("Allow").suspended(),
                        List.of(job(RUNNING, five, true, true)),
                        five,
                        expect(null, false, five, 1, 0, null, 0, 0)),
                new Row(
                        "not first run, pre active, is time, miss deadline",
                        TEN + 12 * MIN,
                        Cj.of("Allow").deadline(SIXTY_SECONDS_DEAD),
                        List.of(job(RUNNING, five, true, true)),
                        five,
                        expect(min(3), false, five, 1, 0, null, 0, 0)),
                new Row(
                        "not first run, pre active, is time, no miss deadline",
                        TEN + 12 * MIN,
                        Cj.of("Allow").deadline(THREE_MINUTES_DEAD),
                        List.of(job(RUNNING, five, true, true)),
                        five,
                        expect(min(3), true, TEN + 10 * MIN, 2, 1, null, 1, 0)),
                new Row(
                        "not first run, pre all done, manymiss, Allow",
                        tenHours,
                        Cj.of("Allow"),
                        List.of(job(COMPLETED, five, true, false)),
                        null,
                        expect(min(5), true, tenHours, 1, 2, TEN + 6 * MIN, 1, 0)),
                new Row(
                        "not first run, pre all done, manymiss, has startingDeadlineSeconds, Allow",
                        TOMORROW_TEN,
                        Cj.of("Allow").schedule("* * * * *").deadline(LONG_DEAD),
                        List.of(job(COMPLETED, five, true, false)),
                        null,
                        expect(min(1), true, TOMORROW_TEN, 1, 2, TEN + 6 * MIN, 1, 0)));
    }

    static CronJob cronJob(Cj c) {
        CronJob.JobTemplateSpec template = new CronJob.JobTemplateSpec(
                new ObjectMeta(
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        Map.of("volcano", "yes"),
                        Map.of("cronjob", "yes"),
                        null,
                        null),
                null);
        return new CronJob(
                CronJob.API_VERSION,
                CronJob.KIND,
                new ObjectMeta(
                        "vccronjob",
                        null,
                        "volcano",
                        "test-uid-123",
                        null,
                        null,
                        "2025-03-11T10:00:00Z",
                        null,
                        null,
                        null,
                        null,
                        null),
                new CronJob.CronJobSpec(
                        c.schedule() == null ? "*/5 * * * *" : c.schedule(),
                        c.timeZone(),
                        c.deadline(),
                        c.concurrency() == null ? "Allow" : c.concurrency(),
                        c.suspend(),
                        template,
                        c.successfulLimit(),
                        c.failedLimit()),
                null);
    }

    static CronJobInfo state(Row r) {
        List<String> active = new ArrayList<>();
        List<OwnedJob> jobs = new ArrayList<>();
        for (J j : r.jobs()) {
            String name = CronJobs.jobName("vccronjob", j.time());
            if (j.inLister()) {
                jobs.add(new OwnedJob(
                        name,
                        j.time(),
                        j.time(),
                        j.status(),
                        j.status().isFinished() ? j.time() + j.processTime() : null,
                        "test-uid-" + j.time()));
            }
            if (j.active()) {
                active.add(name);
            }
        }
        return new CronJobInfo(
                cronJob(r.cronjob()), TEN, active, r.lastScheduleTime(), null, jobs, List.of(), null, false, 0);
    }

    @Test
    void testSyncCronJob() {
        Set<String> names = new LinkedHashSet<>();
        for (Row r : rows()) {
            names.add(r.name());
            CronJobInfo before = state(r);
            CronOutcome o = new CronJobController().apply(before, new CronInput.Tick(r.now()));
            CronJobInfo after = o.state();
            Expect e = r.expect();
            String n = r.name();
            assertThat(o.error() != null).as(n + ": error " + o.error()).isEqualTo(e.error());
            if (e.requeueAfter() == null) {
                assertThat(after.due()).as(n + ": no requeue").isNull();
            } else {
                assertThat(after.due()).as(n + ": requeue").isNotNull();
                assertThat(Duration.ofMillis(after.due() - r.now()).plus(DELTA))
                        .as(n + ": requeue")
                        .isEqualTo(e.requeueAfter());
            }
            assertThat(!Objects.equals(before.status(), after.status()))
                    .as(n + ": status updated")
                    .isEqualTo(e.updateStatus());
            assertThat(after.lastScheduleTime()).as(n + ": lastScheduleTime").isEqualTo(e.lastScheduleTime());
            assertThat(after.lastSuccessfulTime())
                    .as(n + ": lastSuccessfulTime")
                    .isEqualTo(e.lastSuccessTime());
            assertThat(after.active()).as(n + ": active").hasSize(e.inActive());
            assertThat(o.events()).as(n + ": events").hasSize(e.events());
            List<CronAction.CreateJob> created = o.actions().stream()
                    .filter(a -> a instanceof CronAction.CreateJob)
                    .map(a -> (CronAction.CreateJob) a)
                    .toList();
            assertThat(created).as(n + ": created").hasSize(e.created());
            assertThat(o.actions().stream().filter(a -> a instanceof CronAction.DeleteJob))
                    .as(n + ": deleted")
                    .hasSize(e.deleted());
            for (CronAction.CreateJob c : created) {
                validateControllerRef(c.job());
            }
        }
        assertThat(names)
                .as("every row of Volcano's table is here or not applicable")
                .hasSize(65 - NOT_APPLICABLE.size());
    }

    static void validateControllerRef(Job job) {
        OwnerReference ref = CronJobs.owner(job).orElseThrow();
        assertThat(ref.apiVersion()).isEqualTo("batch.volcano.sh/v1alpha1");
        assertThat(ref.kind()).isEqualTo("CronJob");
        assertThat(ref.name()).isEqualTo("vccronjob");
        assertThat(ref.uid()).isEqualTo("test-uid-123");
        assertThat(ref.controller()).isTrue();
    }
}
