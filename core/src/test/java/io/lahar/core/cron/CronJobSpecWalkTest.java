package io.lahar.core.cron;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.admission.Admission;
import io.lahar.core.admission.AdmissionContext;
import io.lahar.core.admission.AdmissionResult;
import io.lahar.core.admission.CronJobAdmission;
import io.lahar.core.admission.JobDefaults;
import io.lahar.core.admission.Violation;
import io.lahar.core.api.CronJob;
import io.lahar.core.api.Job;
import io.lahar.core.api.JobPhase;
import io.lahar.core.api.Manifest;
import io.lahar.core.api.Manifests;
import io.lahar.core.api.ObjectMeta;
import io.lahar.core.api.OwnerReference;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Walks Volcano's CronJobSpec field by field: every value admission accepts changes what the
 * controller does (the jobs it creates, through job admission, and deletes), and a value it could
 * not carry out is refused with the field's path. One test per field, named after it; the first
 * test holds the list to Volcano's type and to the tests of this class.
 */
class CronJobSpecWalkTest {

    /** Volcano's CronJobSpec (batch.volcano.sh/v1alpha1), its JSON names in its order. */
    static final List<String> VOLCANO_SPEC = List.of(
            "schedule",
            "timeZone",
            "startingDeadlineSeconds",
            "concurrencyPolicy",
            "suspend",
            "jobTemplate",
            "successfulJobsHistoryLimit",
            "failedJobsHistoryLimit");

    static final long T0 = Instant.parse("2026-12-01T10:00:20Z").toEpochMilli();
    static final long MIN = 60_000;

    static final String TEMPLATE = """
            jobTemplate:
              metadata:
                labels: {team: ml}
                annotations: {owner: alice}
              spec:
                minAvailable: 2
                maxRetry: 5
                queue: default
                ttlSecondsAfterFinished: 30
                policies:
                - {event: PodEvicted, action: RestartJob}
                plugins: {svc: []}
                tasks:
                - name: main
                  replicas: 2
                  template:
                    spec:
                      containers: [{name: c, image: busybox}]
            """;

    static long minute(int m) {
        return Instant.parse("2026-12-01T10:00:00Z").toEpochMilli() + m * MIN;
    }

    static CronJob cronJob(String spec, String template) {
        return Manifests.read(
                "apiVersion: batch.volcano.sh/v1alpha1\nkind: CronJob\nmetadata: {name: walk, namespace: team}\nspec:\n"
                        + (spec + "\n" + template).indent(2),
                CronJob.class);
    }

    static List<Violation> refused(String spec) {
        return refused(spec, TEMPLATE);
    }

    static List<Violation> refused(String spec, String template) {
        return CronJobAdmission.create(cronJob(spec, template), AdmissionContext.freshInstall())
                .violations();
    }

    /** The controller over one admitted CronJob, each job it creates admitted as job admission admits it. */
    static final class Run {
        final CronJobController controller = new CronJobController();
        CronJobInfo state = CronJobInfo.empty();
        final Map<String, Job> created = new LinkedHashMap<>();
        final List<String> deleted = new ArrayList<>();
        final List<String> reasons = new ArrayList<>();

        Run(String spec) {
            this(spec, TEMPLATE);
        }

        Run(String spec, String template) {
            AdmissionResult<CronJob> admitted =
                    CronJobAdmission.create(cronJob(spec, template), AdmissionContext.freshInstall());
            assertThat(admitted.violations()).as(spec).isEmpty();
            apply(new CronInput.Submit(CronJobs.stamp(admitted.object(), "team", "uid-walk", T0), T0));
        }

        Run apply(CronInput in) {
            CronOutcome o = controller.apply(state, in);
            state = o.state();
            o.events().forEach(e -> reasons.add(e.reason()));
            for (CronAction a : o.actions()) {
                switch (a) {
                    case CronAction.CreateJob c -> {
                        AdmissionResult<Manifest> r = Admission.create(c.job(), AdmissionContext.freshInstall());
                        assertThat(r.violations())
                                .as("job admission of " + c.job().name())
                                .isEmpty();
                        created.put(c.job().name(), (Job) r.object());
                    }
                    case CronAction.DeleteJob d -> deleted.add(d.name());
                }
            }
            return this;
        }

        Run tick(long time) {
            return apply(new CronInput.Tick(time));
        }

        Run ticks(int fromMinute, int toMinute) {
            for (int m = fromMinute; m <= toMinute; m++) {
                tick(minute(m) + 100);
            }
            return this;
        }

        Run finished(String job, JobPhase phase, long time) {
            return apply(new CronInput.JobObserved(job, "uid-" + job, phase, time, time));
        }

        Run suspend(boolean suspend, long time) {
            CronJob c = state.cronJob();
            return apply(new CronInput.Update(c.withSpec(c.spec().withSuspend(suspend)), time));
        }
    }

    static String job(long scheduled) {
        return CronJobs.jobName("walk", scheduled);
    }

    static void refusedAt(List<Violation> violations, String path, String message) {
        assertThat(violations).as(path).anySatisfy(v -> {
            assertThat(v.path()).isEqualTo(path);
            assertThat(v.message()).contains(message);
        });
    }

    @Test
    void everyFieldOfVolcanosSpecIsInTheModelAndWalkedHere() {
        assertThat(Arrays.stream(CronJob.CronJobSpec.class.getRecordComponents())
                        .map(RecordComponent::getName))
                .as("the fields Lahar reads from a CronJob's spec")
                .containsExactlyElementsOf(VOLCANO_SPEC);
        assertThat(Arrays.stream(getClass().getDeclaredMethods())
                        .filter(m -> m.isAnnotationPresent(Test.class))
                        .map(Method::getName))
                .as("a test per field")
                .containsAll(VOLCANO_SPEC);
    }

    @Test
    void schedule() {
        Run run = new Run("schedule: \"*/5 * * * *\"").ticks(1, 11);
        assertThat(run.created.keySet()).containsExactly(job(minute(5)), job(minute(10)));
        assertThat(run.state.due()).isEqualTo(minute(15));

        refusedAt(refused("schedule: \"61 * * * *\""), "spec.schedule", "schedule is not a valid cron expression");
        refusedAt(refused("schedule: \"0 0 30 2 *\""), "spec.schedule", "never fires");
        refusedAt(refused("schedule: \"@every 30s\""), "spec.schedule", "fires more than once a minute");
        refusedAt(refused("schedule: \"\""), "spec.schedule", "schedule is required");
        refusedAt(refused("schedule: \"CRON_TZ=UTC 0 * * * *\""), "spec.schedule", "should not contain TZ");
    }

    @Test
    void timeZone() {
        // Created at 10:00 UTC: 11:00 in Tokyo (UTC+9) is next at 02:00 UTC the day after, 11:00 UTC the same day.
        Run tokyo = new Run("schedule: \"0 11 * * *\"\ntimeZone: Asia/Tokyo");
        long scheduled = Instant.parse("2026-12-02T02:00:00Z").toEpochMilli();
        assertThat(tokyo.state.due()).isEqualTo(scheduled);
        Run utc = new Run("schedule: \"0 11 * * *\"");
        assertThat(utc.state.due())
                .isEqualTo(Instant.parse("2026-12-01T11:00:00Z").toEpochMilli());
        tokyo.tick(Instant.parse("2026-12-01T11:00:00.500Z").toEpochMilli());
        assertThat(tokyo.created).isEmpty();
        tokyo.tick(scheduled + 500);
        assertThat(tokyo.created.keySet()).containsExactly(job(scheduled));
        assertThat(tokyo.created.get(job(scheduled)).metadata().annotations())
                .containsEntry(CronJob.SCHEDULED_TIMESTAMP_ANNOTATION, "2026-12-02T11:00:00+09:00");

        refusedAt(
                refused("schedule: \"0 11 * * *\"\ntimeZone: Mars/Olympus_Mons"), "spec.timeZone", "invalid timeZone");
        refusedAt(refused("schedule: \"0 11 * * *\"\ntimeZone: Local"), "spec.timeZone", "can't be Local");
        refusedAt(refused("schedule: \"0 11 * * *\"\ntimeZone: \"\""), "spec.timeZone", "must be nil or non-empty");
    }

    @Test
    void startingDeadlineSeconds() {
        // The tick of minute 1 comes 30 s late (an outage): within no deadline it still runs, past 10 s it does not.
        Run none = new Run("schedule: \"* * * * *\"").tick(minute(1) + 30_000);
        assertThat(none.created.keySet()).containsExactly(job(minute(1)));
        Run ten = new Run("schedule: \"* * * * *\"\nstartingDeadlineSeconds: 10").tick(minute(1) + 30_000);
        assertThat(ten.created).isEmpty();
        ten.tick(minute(2) + 5_000);
        assertThat(ten.created.keySet()).containsExactly(job(minute(2)));

        refusedAt(
                refused("schedule: \"* * * * *\"\nstartingDeadlineSeconds: -1"),
                "spec.startingDeadlineSeconds",
                "must be >= 0");
    }

    @Test
    void concurrencyPolicy() {
        Run allow = new Run("schedule: \"* * * * *\"\nconcurrencyPolicy: Allow").ticks(1, 2);
        assertThat(allow.state.active()).containsExactly(job(minute(1)), job(minute(2)));
        Run forbid = new Run("schedule: \"* * * * *\"\nconcurrencyPolicy: Forbid").ticks(1, 2);
        assertThat(forbid.created.keySet()).containsExactly(job(minute(1)));
        assertThat(forbid.reasons).contains("ForbidConcurrent");
        Run replace = new Run("schedule: \"* * * * *\"\nconcurrencyPolicy: Replace").ticks(1, 2);
        assertThat(replace.created.keySet()).containsExactly(job(minute(1)), job(minute(2)));
        assertThat(replace.deleted).containsExactly(job(minute(1)));
        assertThat(replace.state.active()).containsExactly(job(minute(2)));
        Run unset = new Run("schedule: \"* * * * *\"");
        assertThat(unset.state.cronJob().spec().concurrencyPolicy())
                .as("the CRD's default")
                .isEqualTo("Allow");

        refusedAt(
                refused("schedule: \"* * * * *\"\nconcurrencyPolicy: Sometimes"),
                "spec.concurrencyPolicy",
                "Sometimes");
    }

    @Test
    void suspend() {
        Run suspended = new Run("schedule: \"* * * * *\"\nsuspend: true").ticks(1, 3);
        assertThat(suspended.created).isEmpty();
        assertThat(suspended.state.due()).isNull();
        suspended.suspend(false, minute(3) + 20_000);
        assertThat(suspended.created.keySet())
                .as("resumed: the latest missed time runs")
                .containsExactly(job(minute(3)));
        suspended.suspend(true, minute(3) + 30_000).ticks(4, 5);
        assertThat(suspended.created).hasSize(1);
        assertThat(suspended.state.active())
                .as("suspending leaves the running jobs alone")
                .containsExactly(job(minute(3)));
        // A boolean has no value admission could refuse: both are walked above.
    }

    @Test
    void jobTemplate() {
        Run run = new Run("schedule: \"* * * * *\"").ticks(1, 1);
        Job made = run.created.get(job(minute(1)));
        CronJob cronJob = cronJob("schedule: \"* * * * *\"", TEMPLATE);
        assertThat(made.spec())
                .as("the whole template spec, as job admission defaults it")
                .isEqualTo(JobDefaults.apply(cronJob.spec().jobTemplate().spec()));
        assertThat(made.metadata().labels()).isEqualTo(Map.of("team", "ml"));
        assertThat(made.metadata().annotations())
                .containsEntry("owner", "alice")
                .containsEntry(CronJob.SCHEDULED_TIMESTAMP_ANNOTATION, "2026-12-01T10:01:00Z");
        assertThat(made.metadata().namespace()).isEqualTo("team");
        assertThat(made.metadata().ownerReferences())
                .containsExactly(new OwnerReference(CronJob.API_VERSION, CronJob.KIND, "walk", "uid-walk", true, true));

        // The template's spec is admitted as a Job's; a job admission would refuse is refused up front.
        refusedAt(
                refused("schedule: \"* * * * *\"", TEMPLATE.replace("minAvailable: 2", "minAvailable: 3")),
                "spec.jobTemplate.spec.minAvailable",
                "");
        refusedAt(refused("schedule: \"* * * * *\"", ""), "spec.jobTemplate", "required");
        refusedAt(
                refused("schedule: \"* * * * *\"", TEMPLATE.replace("team: ml", "\"bad label\": ml")),
                "spec.jobTemplate.metadata.labels",
                "");
        refusedAt(
                refused(
                        "schedule: \"* * * * *\"",
                        TEMPLATE.replace(
                                "owner: alice", CronJob.SCHEDULED_TIMESTAMP_ANNOTATION + ": \"2020-01-01T00:00:00Z\"")),
                "spec.jobTemplate.metadata.annotations." + CronJob.SCHEDULED_TIMESTAMP_ANNOTATION,
                "set by the controller");
    }

    /** The template's metadata: labels and annotations are copied to each job; every other field is refused. */
    @Test
    void jobTemplateMetadataBesidesLabelsAndAnnotationsIsRefused() {
        Map<String, String> samples = new LinkedHashMap<>();
        samples.put("name", "name: fixed");
        samples.put("generateName", "generateName: fixed-");
        samples.put("namespace", "namespace: elsewhere");
        samples.put("uid", "uid: u-1");
        samples.put("resourceVersion", "resourceVersion: \"7\"");
        samples.put("generation", "generation: 2");
        samples.put("creationTimestamp", "creationTimestamp: \"2026-01-01T00:00:00Z\"");
        samples.put("deletionTimestamp", "deletionTimestamp: \"2026-01-01T00:00:00Z\"");
        samples.put("ownerReferences", "ownerReferences: [{apiVersion: v1, kind: ConfigMap, name: cm, uid: u-2}]");
        samples.put("finalizers", "finalizers: [example.com/keep]");
        List<String> others = Arrays.stream(ObjectMeta.class.getRecordComponents())
                .map(RecordComponent::getName)
                .filter(n -> !n.equals("labels") && !n.equals("annotations"))
                .toList();
        assertThat(samples.keySet()).as("every other field of ObjectMeta").containsExactlyInAnyOrderElementsOf(others);

        samples.forEach((field, yaml) -> refusedAt(
                refused(
                        "schedule: \"* * * * *\"",
                        TEMPLATE.replace("  metadata:\n", "  metadata:\n    " + yaml + "\n")),
                "spec.jobTemplate.metadata." + field,
                "not carried to the jobs"));
        // Empty ones carry nothing, and a null creationTimestamp is what kubectl's dry runs write.
        assertThat(refused(
                        "schedule: \"* * * * *\"",
                        TEMPLATE.replace(
                                "  metadata:\n", "  metadata:\n    creationTimestamp: null\n    finalizers: []\n")))
                .isEmpty();
    }

    @Test
    void successfulJobsHistoryLimit() {
        Run run = new Run("schedule: \"* * * * *\"\nsuccessfulJobsHistoryLimit: 1");
        for (int m = 1; m <= 3; m++) {
            run.tick(minute(m)).finished(job(minute(m)), JobPhase.Completed, minute(m) + 10_000);
        }
        assertThat(run.deleted).containsExactly(job(minute(1)), job(minute(2)));
        assertThat(run.state.jobs()).extracting(OwnedJob::name).containsExactly(job(minute(3)));
        Run none = new Run("schedule: \"* * * * *\"\nsuccessfulJobsHistoryLimit: 0");
        none.tick(minute(1)).finished(job(minute(1)), JobPhase.Completed, minute(1) + 10_000);
        assertThat(none.deleted).containsExactly(job(minute(1)));
        Run unset = new Run("schedule: \"* * * * *\"");
        assertThat(unset.state.cronJob().spec().successfulJobsHistoryLimit())
                .as("the CRD's default")
                .isEqualTo(3);

        refusedAt(
                refused("schedule: \"* * * * *\"\nsuccessfulJobsHistoryLimit: -1"),
                "spec.successfulJobsHistoryLimit",
                ">= 0");
        refusedAt(
                refused("schedule: \"* * * * *\"\nsuccessfulJobsHistoryLimit: 101"),
                "spec.successfulJobsHistoryLimit",
                "no more than " + CronJobAdmission.MAX_HISTORY_LIMIT);
    }

    @Test
    void failedJobsHistoryLimit() {
        Run run = new Run("schedule: \"* * * * *\"\nfailedJobsHistoryLimit: 2");
        for (int m = 1; m <= 3; m++) {
            run.tick(minute(m))
                    .finished(job(minute(m)), m == 2 ? JobPhase.Terminated : JobPhase.Failed, minute(m) + 10_000);
        }
        assertThat(run.deleted).containsExactly(job(minute(1)));
        assertThat(run.state.jobs()).extracting(OwnedJob::name).containsExactly(job(minute(2)), job(minute(3)));
        Run unset = new Run("schedule: \"* * * * *\"");
        assertThat(unset.state.cronJob().spec().failedJobsHistoryLimit())
                .as("the CRD's default")
                .isEqualTo(1);

        refusedAt(
                refused("schedule: \"* * * * *\"\nfailedJobsHistoryLimit: -1"), "spec.failedJobsHistoryLimit", ">= 0");
        refusedAt(
                refused("schedule: \"* * * * *\"\nfailedJobsHistoryLimit: 101"),
                "spec.failedJobsHistoryLimit",
                "no more than " + CronJobAdmission.MAX_HISTORY_LIMIT);
    }
}
