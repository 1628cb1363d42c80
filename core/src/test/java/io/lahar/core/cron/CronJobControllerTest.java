package io.lahar.core.cron;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.admission.AdmissionContext;
import io.lahar.core.admission.CronJobAdmission;
import io.lahar.core.api.CronJob;
import io.lahar.core.api.JobPhase;
import io.lahar.core.api.Manifests;
import io.lahar.core.api.ObjectMeta;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The controller driven input by input, as the streams app and {@code lahar simulate} drive it. */
class CronJobControllerTest {

    static final long T0 = Instant.parse("2026-12-01T10:00:20Z").toEpochMilli();
    static final long MIN = 60_000;

    static CronJob admitted(String spec) {
        CronJob raw = Manifests.read("""
                apiVersion: batch.volcano.sh/v1alpha1
                kind: CronJob
                metadata: {name: hello, namespace: team}
                spec:
                """ + spec.indent(2) + """
                  jobTemplate:
                    spec:
                      tasks:
                      - name: main
                        replicas: 1
                        template:
                          spec:
                            containers: [{name: c, image: busybox}]
                """, CronJob.class);
        CronJob c =
                CronJobAdmission.create(raw, AdmissionContext.freshInstall()).object();
        return c.withMetadata(c.metadata().withName("hello"))
                .withMetadata(new ObjectMeta(
                        "hello",
                        null,
                        "team",
                        "uid-1",
                        null,
                        null,
                        Instant.ofEpochMilli(T0).toString(),
                        null,
                        null,
                        null,
                        null,
                        null));
    }

    /** Feeds inputs, keeping every outcome. */
    static final class Driver {
        final CronJobController controller = new CronJobController();
        CronJobInfo state = CronJobInfo.empty();
        final List<CronOutcome> outcomes = new ArrayList<>();

        CronOutcome apply(CronInput in) {
            CronOutcome o = controller.apply(state, in);
            state = o.state();
            outcomes.add(o);
            return o;
        }

        CronOutcome tick(long t) {
            return apply(new CronInput.Tick(t));
        }

        List<String> created(CronOutcome o) {
            return o.actions().stream()
                    .filter(a -> a instanceof CronAction.CreateJob)
                    .map(a -> ((CronAction.CreateJob) a).job().name())
                    .toList();
        }

        List<String> deleted(CronOutcome o) {
            return o.actions().stream()
                    .filter(a -> a instanceof CronAction.DeleteJob)
                    .map(a -> ((CronAction.DeleteJob) a).name())
                    .toList();
        }

        List<String> reasons(CronOutcome o) {
            return o.events().stream().map(CronEvent::reason).toList();
        }
    }

    static String name(long scheduled) {
        return CronJobs.jobName("hello", scheduled);
    }

    static long minute(int m) {
        return Instant.parse("2026-12-01T10:00:00Z").toEpochMilli() + m * MIN;
    }

    @Test
    void ticksCreateTheJobOfEachScheduledMinuteOnce() {
        Driver d = new Driver();
        CronOutcome submitted = d.apply(new CronInput.Submit(admitted("schedule: \"*/2 * * * *\""), T0));
        assertThat(submitted.actions()).isEmpty();
        assertThat(d.state.due()).isEqualTo(minute(2));
        assertThat(d.created(d.tick(minute(1)))).isEmpty();
        assertThat(d.created(d.tick(minute(2) + 300))).containsExactly(name(minute(2)));
        assertThat(d.created(d.tick(minute(2) + 1300)))
                .as("the same minute again")
                .isEmpty();
        assertThat(d.created(d.tick(minute(3)))).isEmpty();
        assertThat(d.created(d.tick(minute(4) + 10))).containsExactly(name(minute(4)));
        assertThat(d.state.active()).containsExactly(name(minute(2)), name(minute(4)));
        assertThat(d.state.status().lastScheduleTime()).isEqualTo("2026-12-01T10:04:00Z");
        assertThat(d.state.due()).isEqualTo(minute(6));
        CronAction.CreateJob c =
                (CronAction.CreateJob) d.outcomes.get(5).actions().get(0);
        assertThat(c.job().metadata().annotations())
                .containsEntry(CronJob.SCHEDULED_TIMESTAMP_ANNOTATION, "2026-12-01T10:04:00Z");
        assertThat(c.scheduledTime()).isEqualTo(minute(4));
    }

    @Test
    void aFinishedJobLeavesActiveAndHistoryLimitsDeleteTheOldest() {
        Driver d = new Driver();
        d.apply(new CronInput.Submit(
                admitted("schedule: \"* * * * *\"\nsuccessfulJobsHistoryLimit: 2\nfailedJobsHistoryLimit: 1"), T0));
        for (int m = 1; m <= 4; m++) {
            d.tick(minute(m));
            d.apply(new CronInput.JobObserved(name(minute(m)), "u" + m, JobPhase.Running, null, minute(m) + 1000));
            CronOutcome done = d.apply(new CronInput.JobObserved(
                    name(minute(m)), "u" + m, JobPhase.Completed, minute(m) + 5000, minute(m) + 6000));
            assertThat(d.reasons(done)).contains("SawCompletedJob");
        }
        assertThat(d.state.jobs()).extracting(OwnedJob::name).containsExactly(name(minute(3)), name(minute(4)));
        assertThat(d.state.active()).isEmpty();
        assertThat(d.state.lastSuccessfulTime()).isEqualTo(minute(4) + 5000);
        // Failed and Terminated are both failed runs: one kept.
        d.tick(minute(5));
        d.apply(new CronInput.JobObserved(name(minute(5)), "u5", JobPhase.Failed, null, minute(5) + 2000));
        d.tick(minute(6));
        CronOutcome terminated =
                d.apply(new CronInput.JobObserved(name(minute(6)), "u6", JobPhase.Terminated, null, minute(6) + 2000));
        assertThat(d.deleted(terminated)).containsExactly(name(minute(5)));
        assertThat(d.state.jobs())
                .extracting(OwnedJob::name)
                .containsExactly(name(minute(3)), name(minute(4)), name(minute(6)));
    }

    /** Volcano's TestByJobCreationTimestamp, as the order history limits delete in: oldest first, then by name. */
    @Test
    void theOldestFinishedJobsGoFirst() {
        CronJob cj = admitted("schedule: \"0 0 1 1 *\"\nsuccessfulJobsHistoryLimit: 1");
        long now = minute(0);
        long later = now + 365L * 24 * 3600 * 1000;
        List<OwnedJob> jobs = List.of(
                new OwnedJob("a", later, later, JobPhase.Completed, later, null),
                new OwnedJob("b", now, now, JobPhase.Completed, now, null));
        CronJobInfo s = new CronJobInfo(cj, T0, List.of(), null, null, jobs, List.of(), null, false, later);
        CronOutcome o = new CronJobController().apply(s, new CronInput.Tick(later));
        assertThat(o.actions())
                .filteredOn(a -> a instanceof CronAction.DeleteJob)
                .containsExactly(new CronAction.DeleteJob("b", "history limit"));
        // Equal creation times: by name.
        jobs = List.of(
                new OwnedJob("b", now, now, JobPhase.Completed, now, null),
                new OwnedJob("a", now, now, JobPhase.Completed, now, null));
        s = new CronJobInfo(cj, T0, List.of(), null, null, jobs, List.of(), null, false, now);
        o = new CronJobController().apply(s, new CronInput.Tick(now));
        assertThat(o.actions())
                .filteredOn(a -> a instanceof CronAction.DeleteJob)
                .containsExactly(new CronAction.DeleteJob("a", "history limit"));
    }

    @Test
    void forbidSkipsWhileAJobRunsAndCatchesUpWithinTheDeadline() {
        Driver d = new Driver();
        d.apply(new CronInput.Submit(
                admitted("schedule: \"* * * * *\"\nconcurrencyPolicy: Forbid\nstartingDeadlineSeconds: 90"), T0));
        d.tick(minute(1));
        CronOutcome skipped = d.tick(minute(2) + 100);
        assertThat(d.created(skipped)).isEmpty();
        assertThat(d.reasons(skipped)).containsExactly("ForbidConcurrent");
        // The job finishes within the starting deadline of minute 2: that run starts late.
        CronOutcome finished = d.apply(new CronInput.JobObserved(
                name(minute(1)), "u", JobPhase.Completed, minute(2) + 20_000, minute(2) + 30_000));
        assertThat(d.created(finished)).containsExactly(name(minute(2)));
        assertThat(d.state.active()).containsExactly(name(minute(2)));
    }

    @Test
    void replaceDeletesTheActiveJobsFirst() {
        Driver d = new Driver();
        d.apply(new CronInput.Submit(admitted("schedule: \"* * * * *\"\nconcurrencyPolicy: Replace"), T0));
        d.tick(minute(1));
        CronOutcome o = d.tick(minute(2));
        assertThat(d.deleted(o)).containsExactly(name(minute(1)));
        assertThat(d.created(o)).containsExactly(name(minute(2)));
        assertThat(d.reasons(o)).containsExactly("ReplaceConcurrent", "SuccessfulDelete", "SuccessfulCreate");
        assertThat(d.state.active()).containsExactly(name(minute(2)));
        assertThat(d.state.jobs()).extracting(OwnedJob::name).containsExactly(name(minute(2)));
    }

    @Test
    void suspendStopsNewRunsAndResumeCatchesUpTheLatestMissedOne() {
        Driver d = new Driver();
        CronJob cj = admitted("schedule: \"* * * * *\"");
        d.apply(new CronInput.Submit(cj, T0));
        d.tick(minute(1));
        d.apply(new CronInput.Update(cj.withSpec(cj.spec().withSuspend(true)), minute(1) + 500));
        assertThat(d.state.due()).isNull();
        for (int m = 2; m <= 5; m++) {
            assertThat(d.created(d.tick(minute(m)))).isEmpty();
        }
        CronOutcome resumed =
                d.apply(new CronInput.Update(cj.withSpec(cj.spec().withSuspend(false)), minute(5) + 30_000));
        assertThat(d.created(resumed)).containsExactly(name(minute(5)));
        assertThat(d.state.due()).isEqualTo(minute(6));
    }

    @Test
    void deletingTheCronJobDeletesItsJobsAndLateRecordsChangeNothing() {
        Driver d = new Driver();
        d.apply(new CronInput.Submit(admitted("schedule: \"* * * * *\""), T0));
        d.tick(minute(1));
        d.apply(new CronInput.JobObserved(name(minute(1)), "u", JobPhase.Completed, null, minute(1) + 1000));
        d.tick(minute(2));
        CronOutcome deleted = d.apply(new CronInput.Delete(minute(2) + 10));
        assertThat(d.deleted(deleted)).containsExactlyInAnyOrder(name(minute(1)), name(minute(2)));
        assertThat(d.state.live()).isFalse();
        assertThat(d.state.due()).isNull();
        assertThat(d.tick(minute(3)).actions()).isEmpty();
        assertThat(d.apply(new CronInput.JobObserved(name(minute(2)), "u", JobPhase.Running, null, minute(3)))
                        .actions())
                .isEmpty();
    }

    @Test
    void jobAdmissionRefusesTheJob() {
        Driver d = new Driver();
        d.apply(new CronInput.Submit(admitted("schedule: \"* * * * *\""), T0));
        d.tick(minute(1));
        CronOutcome refused = d.apply(new CronInput.JobRejected(
                name(minute(1)), List.of("spec.queue: queue \"gpu\" not found"), minute(1) + 50));
        assertThat(d.reasons(refused)).containsExactly("FailedCreate");
        assertThat(refused.events().get(0).message())
                .contains("queue \"gpu\" not found")
                .contains(name(minute(1)));
        assertThat(d.state.active()).isEmpty();
        assertThat(d.state.jobs()).isEmpty();
        assertThat(d.state.lastScheduleTime())
                .as("the time was handled: not retried")
                .isEqualTo(minute(1));
        assertThat(d.created(d.tick(minute(1) + 5000))).isEmpty();
        assertThat(d.created(d.tick(minute(2)))).containsExactly(name(minute(2)));
        assertThat(d.state.events()).extracting(CronEvent::reason).contains("FailedCreate");
    }

    @Test
    void aJobDeletedBySomeoneElseIsAStaleReference() {
        Driver d = new Driver();
        d.apply(new CronInput.Submit(admitted("schedule: \"* * * * *\"\nconcurrencyPolicy: Forbid"), T0));
        d.tick(minute(1));
        CronOutcome gone = d.apply(new CronInput.JobGone(name(minute(1)), minute(1) + 5000));
        assertThat(d.reasons(gone)).containsExactly("StaleReference");
        assertThat(d.state.active()).isEmpty();
        assertThat(d.created(d.tick(minute(2))))
                .as("Forbid no longer waits for it")
                .containsExactly(name(minute(2)));
    }

    @Test
    void finalPhasesStayAndTimeDoesNotGoBack() {
        Driver d = new Driver();
        d.apply(new CronInput.Submit(admitted("schedule: \"* * * * *\""), T0));
        d.tick(minute(1));
        d.apply(new CronInput.JobObserved(name(minute(1)), "u", JobPhase.Failed, null, minute(1) + 1000));
        d.apply(new CronInput.JobObserved(name(minute(1)), "u", JobPhase.Running, null, minute(1) + 2000));
        assertThat(d.state.job(name(minute(1))).phase()).isEqualTo(JobPhase.Failed);
        d.tick(minute(3));
        CronOutcome late = d.tick(minute(2));
        assertThat(late.actions()).isEmpty();
        assertThat(late.state().time()).isEqualTo(minute(3));
    }

    @Test
    void manyMissedTimesWarnAndRunTheLatestOnly() {
        Driver d = new Driver();
        d.apply(new CronInput.Submit(admitted("schedule: \"* * * * *\""), T0));
        CronOutcome o = d.tick(minute(500));
        assertThat(d.created(o)).containsExactly(name(minute(500)));
        assertThat(d.reasons(o)).containsExactly("TooManyMissedTimes", "SuccessfulCreate");
    }

    @Test
    void timeZonesMoveTheRuns() {
        Driver d = new Driver();
        d.apply(new CronInput.Submit(admitted("schedule: \"30 11 * * *\"\ntimeZone: Europe/Paris"), T0));
        assertThat(Instant.ofEpochMilli(d.state.due())).isEqualTo(Instant.parse("2026-12-01T10:30:00Z"));
        CronOutcome o = d.tick(Instant.parse("2026-12-01T10:30:00.400Z").toEpochMilli());
        CronAction.CreateJob c = (CronAction.CreateJob) o.actions().get(0);
        assertThat(c.job().metadata().annotations())
                .containsEntry(CronJob.SCHEDULED_TIMESTAMP_ANNOTATION, "2026-12-01T11:30:00+01:00");
    }

    @Test
    void activeJobsAreBounded() {
        Driver d = new Driver();
        d.apply(new CronInput.Submit(admitted("schedule: \"* * * * *\""), T0));
        for (int m = 1; m <= CronSync.MAX_ACTIVE; m++) {
            d.tick(minute(m));
        }
        assertThat(d.state.active()).hasSize(CronSync.MAX_ACTIVE);
        CronOutcome o = d.tick(minute(CronSync.MAX_ACTIVE + 1));
        assertThat(d.created(o)).isEmpty();
        assertThat(d.reasons(o)).containsExactly("TooManyActiveJobs");
    }

    @Test
    void eventsKeptAreBounded() {
        Driver d = new Driver();
        d.apply(new CronInput.Submit(admitted("schedule: \"* * * * *\""), T0));
        for (int m = 1; m <= 30; m++) {
            d.tick(minute(m));
        }
        assertThat(d.state.events()).hasSize(CronJobInfo.MAX_EVENTS);
        assertThat(d.state.events().get(CronJobInfo.MAX_EVENTS - 1).message()).contains(name(minute(30)));
    }
}
