package io.lahar.core.cron;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.lahar.core.api.ConcurrencyPolicy;
import io.lahar.core.api.CronJob;
import io.lahar.core.api.JobPhase;
import io.lahar.core.api.Manifests;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * Invariants of the CronJob controller over random histories (ticks, job phases, jobs deleted by
 * someone else, job admission's refusals, suspend and resume) for each concurrency policy and
 * small history limits: no two jobs for one scheduled time, Forbid never has two active, the
 * history limits hold, no deleted job comes back, and a stored state behaves as the live one.
 */
class CronPropertiesTest {

    static final ObjectMapper JSON = Manifests.jsonMapper();
    static final long T0 = CronJobControllerTest.T0;

    /** One random input: kind 0 tick (advance ms), 1 a job's phase, 2 a job gone, 3 a refusal, 4 suspend/resume. */
    record Step(int kind, long advance, int job, JobPhase phase) {}

    @Provide
    Arbitrary<List<Step>> scripts() {
        Arbitrary<Step> tick = Arbitraries.longs().between(0, 7 * 60_000).map(a -> new Step(0, a, 0, null));
        Arbitrary<Step> phase = Combinators.combine(
                        Arbitraries.integers().between(0, 9),
                        Arbitraries.of(
                                JobPhase.Running,
                                JobPhase.Completed,
                                JobPhase.Failed,
                                JobPhase.Terminated,
                                JobPhase.Aborted,
                                JobPhase.Pending))
                .as((j, p) -> new Step(1, 0, j, p));
        Arbitrary<Step> gone = Arbitraries.integers().between(0, 9).map(j -> new Step(2, 0, j, null));
        Arbitrary<Step> refused = Arbitraries.integers().between(0, 9).map(j -> new Step(3, 0, j, null));
        Arbitrary<Step> suspend = Arbitraries.just(new Step(4, 0, 0, null));
        return Arbitraries.frequencyOf(
                        Tuple.of(8, tick),
                        Tuple.of(8, phase),
                        Tuple.of(1, gone),
                        Tuple.of(1, refused),
                        Tuple.of(1, suspend))
                .list()
                .ofMaxSize(60);
    }

    @Property(tries = 200)
    void invariantsHold(
            @ForAll("scripts") List<Step> script,
            @ForAll ConcurrencyPolicy policy,
            @ForAll("limits") int successfulLimit,
            @ForAll("limits") int failedLimit,
            @ForAll("schedules") String schedule)
            throws Exception {
        CronJob cj = CronJobControllerTest.admitted("schedule: \"" + schedule + "\"\nconcurrencyPolicy: "
                + policy.name()
                + "\nsuccessfulJobsHistoryLimit: " + successfulLimit + "\nfailedJobsHistoryLimit: " + failedLimit
                + "\nstartingDeadlineSeconds: 200");
        Schedule parsed = CronParser.parseStandard(schedule, ZoneOffset.UTC);
        CronJobController c = new CronJobController();
        long time = T0;
        boolean suspended = false;
        CronOutcome o = c.apply(CronJobInfo.empty(), new CronInput.Submit(cj, time));
        Set<String> everCreated = new HashSet<>();
        Set<String> deleted = new HashSet<>();
        for (Step s : script) {
            CronJobInfo live = o.state();
            List<OwnedJob> jobs = live.jobs();
            String job =
                    jobs.isEmpty() ? "none" : jobs.get(s.job() % jobs.size()).name();
            CronInput in = switch (s.kind()) {
                case 0 -> new CronInput.Tick(time += s.advance());
                case 1 -> new CronInput.JobObserved(job, "uid-" + job, s.phase(), null, time);
                case 2 -> new CronInput.JobGone(job, time);
                case 3 -> new CronInput.JobRejected(job, List.of("refused"), time);
                default -> {
                    suspended = !suspended;
                    yield new CronInput.Update(cj.withSpec(cj.spec().withSuspend(suspended)), time);
                }
            };
            CronJobInfo stored = JSON.readValue(JSON.writeValueAsBytes(live), CronJobInfo.class);
            o = c.apply(live, in);
            CronOutcome replayed = c.apply(stored, in);
            assertThat(JSON.writeValueAsString(replayed))
                    .as("a stored state behaves as the live one")
                    .isEqualTo(JSON.writeValueAsString(o));
            CronJobInfo now = o.state();
            for (CronAction a : o.actions()) {
                switch (a) {
                    case CronAction.CreateJob cr -> {
                        assertThat(everCreated.add(cr.job().name()))
                                .as("one job per scheduled time: " + cr.job().name())
                                .isTrue();
                        assertThat(cr.scheduledTime())
                                .as("never ahead of the clock")
                                .isLessThanOrEqualTo(now.time());
                        if (parsed instanceof SpecSchedule) {
                            assertThat(parsed.next(Instant.ofEpochMilli(cr.scheduledTime() - 1)))
                                    .as("an activation of the schedule")
                                    .isEqualTo(Instant.ofEpochMilli(cr.scheduledTime()));
                        }
                        assertThat(suspended).as("no run while suspended").isFalse();
                    }
                    case CronAction.DeleteJob d -> deleted.add(d.name());
                }
            }
            if (policy == ConcurrencyPolicy.Forbid) {
                assertThat(now.active()).as("Forbid never has two active").hasSizeLessThanOrEqualTo(1);
            }
            assertThat(now.jobs().stream().filter(j -> j.phase() == JobPhase.Completed))
                    .as("successful history")
                    .hasSizeLessThanOrEqualTo(successfulLimit);
            assertThat(now.jobs().stream()
                            .filter(j -> j.phase() == JobPhase.Failed || j.phase() == JobPhase.Terminated))
                    .as("failed history")
                    .hasSizeLessThanOrEqualTo(failedLimit);
            for (String a : now.active()) {
                OwnedJob j = now.job(a);
                assertThat(j).as("an active job exists: " + a).isNotNull();
                assertThat(j.finished()).as("an active job is unfinished: " + a).isFalse();
            }
            for (OwnedJob j : now.jobs()) {
                assertThat(everCreated).as("only jobs it created").contains(j.name());
                assertThat(deleted)
                        .as("a deleted job never comes back: " + j.name())
                        .doesNotContain(j.name());
            }
            assertThat(now.events()).hasSizeLessThanOrEqualTo(CronJobInfo.MAX_EVENTS);
        }
    }

    @Provide
    Arbitrary<Integer> limits() {
        return Arbitraries.integers().between(0, 3);
    }

    @Provide
    Arbitrary<String> schedules() {
        return Arbitraries.of("* * * * *", "*/3 * * * *", "@every 2m", "1-59/2 * * * *", "@hourly");
    }
}
