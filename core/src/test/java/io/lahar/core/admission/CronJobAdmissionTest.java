package io.lahar.core.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.api.CronJob;
import io.lahar.core.api.Manifest;
import io.lahar.core.api.Manifests;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Volcano's admit_cronjob_test.go (TestValidateCronjobSpec, TestValidateCronJobName,
 * TestValidateCronJobSeparatesMultipleErrors, TestValidateCronJobSingleErrorHasNoSeparator), and
 * what Lahar adds: the job template admitted as a Job spec, bounded numbers, schedules that never
 * fire or fire more than once a minute refused, the CRD's defaults.
 */
class CronJobAdmissionTest {

    /** Volcano's getJobTemplate. */
    static final String JOB_TEMPLATE = """
            jobTemplate:
              spec:
                minAvailable: 1
                queue: default
                tasks:
                - name: task-1
                  replicas: 1
                  template:
                    metadata: {labels: {name: test}}
                    spec:
                      containers: [{name: fake-name, image: "busybox:1.24"}]
                policies:
                - {event: PodEvicted, action: RestartTask}
            """;

    static CronJob cronJob(String name, String spec) {
        return Manifests.read(
                "apiVersion: batch.volcano.sh/v1alpha1\nkind: CronJob\nmetadata:\n  name: " + name
                        + "\n  namespace: default\nspec:\n" + (spec + JOB_TEMPLATE).indent(2),
                CronJob.class);
    }

    static List<Violation> violations(CronJob c) {
        return CronJobAdmission.create(c, AdmissionContext.freshInstall()).violations();
    }

    record Row(String name, String spec, String ret) {}

    @Test
    void testValidateCronjobSpec() {
        List<Row> rows = List.of(
                new Row("validate valid-cronjob", "schedule: \"* * * * *\"\nconcurrencyPolicy: Allow\n", ""),
                new Row("validate non-standard scheduled", "schedule: \"@every 1m\"\nconcurrencyPolicy: Allow\n", ""),
                new Row("validate correct timeZone", "schedule: \"*/5 * * * *\"\ntimeZone: Pacific/Honolulu\n", ""),
                new Row(
                        "validate contain TZ schedule",
                        "schedule: \"TZ=UTC 0 20 * * *\"\ntimeZone: Pacific/Honolulu\n",
                        "schedule should not contain TZ or CRON_TZ, TZ should only be set in the timeZone field"),
                new Row(
                        "validate error schedule",
                        "schedule: error schedule\ntimeZone: Pacific/Honolulu\n",
                        "schedule is not a valid cron expression"),
                new Row(
                        "validate empty schedule",
                        "schedule: \"\"\ntimeZone: Pacific/Honolulu\n",
                        "schedule is required, but got empty"),
                new Row(
                        "validate unknown . timezone",
                        "schedule: \"*/5 * * * *\"\ntimeZone: Asia/./Shanghai\n",
                        "unknown timeZone"),
                new Row(
                        "validate unknown _ timezone",
                        "schedule: \"*/5 * * * *\"\ntimeZone: America/-NewYork\n",
                        "unknown timeZone"),
                new Row(
                        "validate unknown space timezone",
                        "schedule: \"*/5 * * * *\"\ntimeZone: New York\n",
                        "unknown timeZone"),
                new Row(
                        "validate unknown ! timezone",
                        "schedule: \"*/5 * * * *\"\ntimeZone: UTC!\n",
                        "unknown timeZone"),
                new Row(
                        "validate Local timezone",
                        "schedule: \"*/5 * * * *\"\ntimeZone: Local\n",
                        "timeZone can't be Local, and must be defined in https://www.iana.org/time-zones"),
                new Row(
                        "validate empty timezone",
                        "schedule: \"\"\ntimeZone: \"\"\n",
                        "timeZone must be nil or non-empty string, got empty string"),
                new Row(
                        "validate error timezone",
                        "schedule: \"\"\ntimeZone: Amerrica/New_York\n",
                        "invalid timeZone"));
        for (Row r : rows) {
            List<Violation> v = violations(cronJob("cronvcjob", r.spec()));
            if (r.ret().isEmpty()) {
                assertThat(v).as(r.name()).isEmpty();
            } else {
                assertThat(v)
                        .as(r.name())
                        .anySatisfy(x -> assertThat(x.message()).contains(r.ret()));
            }
        }
    }

    /** Volcano's test calls validateCronJobName alone: so does this one. */
    @Test
    void testValidateCronJobName() {
        String[][] rows = {
            {"valid name", "my-cronjob", ""},
            {"exactly max length", "a".repeat(52), ""},
            {"too long name", "a".repeat(65), "must be no more than 52 characters"},
            {"invalid chars", "-UPPERCASE", "invalid cronJob name"}
        };
        for (String[] r : rows) {
            Violations v = new Violations();
            CronJobAdmission.validateName(
                    new CronJob(
                            CronJob.API_VERSION, CronJob.KIND, io.lahar.core.api.ObjectMeta.named(r[1]), null, null),
                    v);
            if (r[2].isEmpty()) {
                assertThat(v.list()).as(r[0]).isEmpty();
            } else {
                assertThat(v.list())
                        .as(r[0])
                        .anySatisfy(x -> assertThat(x.message()).contains(r[2]));
            }
        }
    }

    /** Several failures come back as several violations, each with its path (Volcano joins them with "; "). */
    @Test
    void testValidateCronJobSeparatesMultipleErrors() {
        List<Violation> v = violations(cronJob("a".repeat(53), "schedule: error schedule\nconcurrencyPolicy: Allow\n"));
        assertThat(v).extracting(Violation::path).startsWith("metadata.name", "spec.schedule");
        assertThat(v.get(0).message()).contains("must be no more than 52 characters");
        assertThat(v.get(1).message()).contains("schedule is not a valid cron expression");
    }

    @Test
    void testValidateCronJobSingleErrorHasNoSeparator() {
        List<Violation> v = violations(cronJob("valid-cronjob", "schedule: \"\"\nconcurrencyPolicy: Allow\n"));
        assertThat(v).containsExactly(new Violation("spec.schedule", "schedule is required, but got empty"));
    }

    @Test
    void volcanosExampleIsAccepted() throws java.io.IOException {
        Manifest m =
                Manifests.read(java.nio.file.Files.readString(java.nio.file.Path.of("..", "examples", "cronjob.yaml")));
        AdmissionResult<Manifest> r = Admission.create(m, AdmissionContext.freshInstall());
        assertThat(r.violations()).isEmpty();
        CronJob c = (CronJob) r.object();
        assertThat(c.spec().concurrency()).isEqualTo(io.lahar.core.api.ConcurrencyPolicy.Forbid);
        assertThat(c.spec().successfulJobsHistoryLimit()).isEqualTo(5);
        assertThat(Manifests.read(Manifests.toYaml(c))).as("round trip").isEqualTo(c);
    }

    @Test
    void aScheduleThatDoesNotParseSaysWhy() {
        assertThat(violations(cronJob("c", "schedule: \"61 * * * *\"\n")))
                .containsExactly(new Violation(
                        "spec.schedule",
                        "schedule is not a valid cron expression: end of range (61) above maximum (59): 61"));
    }

    @Test
    void schedulesThatNeverFireOrFireTooOftenAreRefused() {
        assertThat(violations(cronJob("c", "schedule: \"0 0 30 2 *\"\n")))
                .anySatisfy(x -> assertThat(x.message()).contains("never fires"));
        assertThat(violations(cronJob("c", "schedule: \"@every 30s\"\n")))
                .anySatisfy(x -> assertThat(x.message()).contains("more than once a minute"));
        assertThat(violations(cronJob("c", "schedule: \"0 0 29 2 *\"\n"))).isEmpty();
    }

    @Test
    void theJobTemplateIsAdmittedAsAJobSpec() {
        CronJob c = Manifests.read("""
                apiVersion: batch.volcano.sh/v1alpha1
                kind: CronJob
                metadata: {name: c}
                spec:
                  schedule: "* * * * *"
                  jobTemplate:
                    metadata:
                      labels: {"bad label!": x}
                    spec:
                      minAvailable: 5
                      plugins: {nope: []}
                      tasks:
                      - name: Main
                        replicas: 1
                        template: {spec: {containers: [{name: c, image: busybox}]}}
                """, CronJob.class);
        assertThat(violations(c))
                .extracting(Violation::path)
                .contains(
                        "spec.jobTemplate.metadata.labels",
                        "spec.jobTemplate.spec.minAvailable",
                        "spec.jobTemplate.spec.plugins.nope",
                        "spec.jobTemplate.spec.tasks[0].name");
        CronJob none = Manifests.read("""
                apiVersion: batch.volcano.sh/v1alpha1
                kind: CronJob
                metadata: {name: c}
                spec: {schedule: "* * * * *"}
                """, CronJob.class);
        assertThat(violations(none)).containsExactly(new Violation("spec.jobTemplate", "required"));
    }

    /** The jobs' pods are {@code <cronjob>-<minutes>-<task>-<index>}: a long name leaves them no room. */
    @Test
    void podNamesOfTheJobsMustFit() {
        assertThat(violations(cronJob("a".repeat(43), "schedule: \"* * * * *\"\n")))
                .isEmpty();
        assertThat(violations(cronJob("a".repeat(44), "schedule: \"* * * * *\"\n")))
                .singleElement()
                .satisfies(x -> {
                    assertThat(x.path()).isEqualTo("spec.jobTemplate.spec.tasks[0].name");
                    assertThat(x.message()).contains("pod name");
                });
    }

    @Test
    void numbersAreInRange() {
        List<Violation> v = violations(cronJob("c", """
                schedule: "* * * * *"
                startingDeadlineSeconds: -1
                concurrencyPolicy: Sometimes
                successfulJobsHistoryLimit: -1
                failedJobsHistoryLimit: 101
                """));
        assertThat(v)
                .extracting(Violation::path)
                .containsExactly(
                        "spec.startingDeadlineSeconds",
                        "spec.concurrencyPolicy",
                        "spec.successfulJobsHistoryLimit",
                        "spec.failedJobsHistoryLimit");
        assertThat(v.get(1).message()).contains("\"Allow\"", "\"Forbid\"", "\"Replace\"");
    }

    @Test
    void theCrdDefaultsAreApplied() {
        CronJob c =
                (CronJob) Admission.create(cronJob("c", "schedule: \"* * * * *\"\n"), AdmissionContext.freshInstall())
                        .object();
        assertThat(c.spec().concurrencyPolicy()).isEqualTo("Allow");
        assertThat(c.spec().suspend()).isFalse();
        assertThat(c.spec().successfulJobsHistoryLimit()).isEqualTo(3);
        assertThat(c.spec().failedJobsHistoryLimit()).isEqualTo(1);
        assertThat(c.spec().jobTemplate().spec().maxRetry())
                .as("the template is kept as written")
                .isNull();
    }

    @Test
    void aSecondCreateAndARenameAreRefused() {
        CronJob c = cronJob("c", "schedule: \"* * * * *\"\n");
        AdmissionContext ctx = AdmissionContext.freshInstall().with(c);
        assertThat(Admission.create(c, ctx).violations())
                .extracting(Violation::message)
                .containsExactly("cronjob \"c\" already exists");
        Manifest renamed = cronJob("d", "schedule: \"* * * * *\"\n");
        assertThat(Admission.update(c, renamed, ctx).violations())
                .extracting(Violation::path)
                .containsExactly("metadata.name");
        assertThat(Admission.update(c, cronJob("c", "schedule: \"*/2 * * * *\"\n"), ctx)
                        .accepted())
                .isTrue();
    }
}
