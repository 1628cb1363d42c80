package io.lahar.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.api.Job;
import io.lahar.core.api.Manifest;
import io.lahar.core.api.Manifests;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Drives {@link Lahar} in-process: exit codes, stdout and stderr of {@code lahar admit}. */
class AdmitCommandTest {

    static final Path EXAMPLES = Path.of("..", "examples");

    @TempDir
    Path tmp;

    record Run(int code, String out, String err) {
        List<String> errLines() {
            return err.lines().toList();
        }
    }

    static Run lahar(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Lahar.run(args, new PrintWriter(out), new PrintWriter(err));
        return new Run(code, out.toString(), err.toString());
    }

    Path file(String name, String content) throws IOException {
        Path p = tmp.resolve(name);
        Files.writeString(p, content);
        return p;
    }

    @Test
    void acceptedPrintsTheDefaultedObjects() {
        Run r = lahar("admit", "-f", EXAMPLES.resolve("tf-job.yaml").toString());
        assertThat(r.code()).isZero();
        assertThat(r.err()).isEmpty();
        Job job = Manifests.read(r.out(), Job.class);
        assertThat(job.spec().queue()).isEqualTo("default");
        assertThat(job.spec().maxRetry()).isEqualTo(3);
        assertThat(job.spec().tasks().get(1).minAvailable()).isEqualTo(5);
    }

    @Test
    void severalFilesAndDocumentsAreAdmittedInOrder() {
        Run r = lahar(
                "admit",
                "-f",
                EXAMPLES.resolve("queues.yaml").toString(),
                "-f",
                EXAMPLES.resolve("jobflow-templates.yaml").toString(),
                "-f",
                EXAMPLES.resolve("jobflow.yaml").toString());
        assertThat(r.code()).as(r.err()).isZero();
        List<Manifest> out = Manifests.readAll(r.out());
        assertThat(out)
                .extracting(Manifest::kind)
                .containsExactly(
                        "Queue",
                        "Queue",
                        "JobTemplate",
                        "JobTemplate",
                        "JobTemplate",
                        "JobTemplate",
                        "JobTemplate",
                        "JobFlow");
    }

    @Test
    void aJobMaySubmitToAQueueCreatedBeforeIt() throws IOException {
        Path f = file("both.yaml", """
                apiVersion: scheduling.volcano.sh/v1beta1
                kind: Queue
                metadata: {name: team}
                ---
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata: {name: j}
                spec:
                  queue: team
                  tasks:
                  - {name: a, replicas: 1, template: {spec: {containers: [{name: c, image: x}]}}}
                """);
        assertThat(lahar("admit", "-f", f.toString()).code()).isZero();
    }

    @Test
    void rejectedPrintsOneLinePerViolation() {
        Run r = lahar("admit", "-f", EXAMPLES.resolve("invalid-job.yaml").toString());
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.out()).isEmpty();
        assertThat(r.errLines())
                .allMatch(l -> l.startsWith("error: spec."))
                .contains(
                        "error: spec.tasks[1].name: duplicate task name \"worker\"",
                        "error: spec.maxRetry: must be >= 0",
                        "error: spec.policies[0]: must not specify both event and exitCode",
                        "error: spec.plugins.mpi: The specified mpi master task was not found: \"master\"");
    }

    @Test
    void violationsOfOneOfSeveralDocumentsNameTheObject() throws IOException {
        Path f = file(
                "two.yaml",
                Files.readString(EXAMPLES.resolve("tf-job.yaml")) + "---\n"
                        + Files.readString(EXAMPLES.resolve("invalid-queue.yaml")));
        Run r = lahar("admit", "-f", f.toString());
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.errLines())
                .contains("error: spec.weight: queue weight must be a positive integer [Queue broken-queue]");
    }

    @Test
    void unknownFieldsAreDroppedWithAWarningAndAnchorsExpanded() throws IOException {
        Run r = lahar("admit", "-f", file("anchors.yaml", """
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata: {name: j}
                spec:
                  minAvailabel: 1
                  tasks:
                  - name: a
                    replica: 2
                    template: &pod {spec: {containers: [{name: c, image: x, args: &b ["--port", "22"]}]}}
                  - name: b
                    replicas: 1
                    template: {spec: {containers: [{name: c, image: x, args: *b}]}}
                """).toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.errLines())
                .containsExactly(
                        "Warning: unknown field \"spec.minAvailabel\"",
                        "Warning: unknown field \"spec.tasks[0].replica\"");
        Job job = Manifests.read(r.out(), Job.class);
        assertThat(job.spec()
                        .tasks()
                        .get(1)
                        .pod()
                        .containers()
                        .getFirst()
                        .node()
                        .path("args")
                        .toString())
                .isEqualTo("[\"--port\",\"22\"]");
    }

    @Test
    void aBillionLaughsIsUnreadableInput() throws IOException {
        StringBuilder yaml = new StringBuilder("l0: &l0 [x, x]\n");
        for (int i = 1; i <= 24; i++) {
            yaml.append("l")
                    .append(i)
                    .append(": &l")
                    .append(i)
                    .append(" [*l")
                    .append(i - 1)
                    .append(", *l")
                    .append(i - 1)
                    .append("]\n");
        }
        Run r = lahar("admit", "-f", file("lol.yaml", yaml.toString()).toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("refused as a possible \"billion laughs\"");
    }

    @Test
    void replicasPastThePodLimitAreAViolation() throws IOException {
        Run r = lahar("admit", "-f", file("huge.yaml", """
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata: {name: j}
                spec:
                  tasks:
                  - {name: a, replicas: 2147483647, template: {spec: {containers: [{name: c, image: x}]}}}
                """).toString());
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.errLines())
                .contains(
                        "error: spec.tasks[0].replicas: must be no more than 5000, the limit of pods per job (was 2147483647)");
    }

    @Test
    void unknownKindExitsTwo() throws IOException {
        Run r = lahar(
                "admit",
                "-f",
                file("pod.yaml", "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n")
                        .toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("unknown kind \"Pod\"");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void unreadableInputExitsTwo() throws IOException {
        assertThat(lahar("admit", "-f", file("bad.yaml", "kind: [Job\n").toString())
                        .code())
                .isEqualTo(2);
        Run missing = lahar("admit", "-f", tmp.resolve("nope.yaml").toString());
        assertThat(missing.code()).isEqualTo(2);
        assertThat(missing.err()).contains("no such file");
        Run wrongType = lahar("admit", "-f", file("t.yaml", """
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata: {name: j}
                spec: {minAvailable: lots}
                """).toString());
        assertThat(wrongType.code()).isEqualTo(2);
        assertThat(wrongType.err()).contains("spec.minAvailable: must be an integer");
        assertThat(lahar("admit").code()).isEqualTo(2);
    }

    @Test
    void existingQueuesReplaceTheFreshInstall() {
        Path job = EXAMPLES.resolve("tf-job.yaml");
        Run r = lahar("admit", "--existing", EXAMPLES.resolve("queues.yaml").toString(), "-f", job.toString());
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.errLines()).containsExactly("error: spec.queue: queue \"default\" not found");
    }

    @Test
    void aClosedExistingQueueRejectsJobs() throws IOException {
        Path job = file(
                "j.yaml",
                Files.readString(EXAMPLES.resolve("tf-job.yaml"))
                        .replaceFirst("\nspec:\n", "\nspec:\n  queue: archive\n"));
        Run r = lahar(
                "admit", "--existing", EXAMPLES.resolve("closed-queue.yaml").toString(), "-f", job.toString());
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.errLines())
                .containsExactly(
                        "error: spec.queue: can only submit job to queue with state Open, queue \"archive\" status is Closed");
    }

    @Test
    void oldMakesItAnUpdate() throws IOException {
        Path old = EXAMPLES.resolve("tf-job.yaml");
        String text = Files.readString(old);
        Path scaled = file(
                "scaled.yaml",
                text.replace("replicas: 5", "replicas: 7").replace("minAvailable: 6", "minAvailable: 8"));
        Run ok = lahar("admit", "--old", old.toString(), "-f", scaled.toString());
        assertThat(ok.code()).as(ok.err()).isZero();
        assertThat(Manifests.read(ok.out(), Job.class).spec().tasks().get(1).replicas())
                .isEqualTo(7);
        Path changed = file("changed.yaml", text.replace("image: worker-img", "image: other-img"));
        Run bad = lahar("admit", "--old", old.toString(), "-f", changed.toString());
        assertThat(bad.code()).isEqualTo(1);
        assertThat(bad.errLines())
                .singleElement()
                .asString()
                .startsWith("error: spec.tasks[1].template.spec.containers[0].image: may not be changed on update");
    }

    @Test
    void jobFlowUpdatesAndDeletes() throws IOException {
        Path flow = EXAMPLES.resolve("jobflow.yaml");
        assertThat(lahar("admit", "--old", flow.toString(), "-f", flow.toString())
                        .code())
                .isZero();
        Path retained = file(
                "retained.yaml", Files.readString(flow).replace("jobRetainPolicy: delete", "jobRetainPolicy: retain"));
        Run update = lahar("admit", "--old", flow.toString(), "-f", retained.toString());
        assertThat(update.code()).isEqualTo(1);
        assertThat(update.errLines()).containsExactly("error: spec: jobflow updates are not supported");
        Run deleteTemplate = lahar(
                "admit",
                "--existing",
                flow.toString(),
                "--delete",
                "-f",
                file("a.yaml", "apiVersion: flow.volcano.sh/v1alpha1\nkind: JobTemplate\nmetadata: {name: a}\n")
                        .toString());
        assertThat(deleteTemplate.code()).isEqualTo(1);
        assertThat(deleteTemplate.errLines())
                .containsExactly(
                        "error: metadata.name: jobtemplate \"a\" is used by unfinished jobflow \"test\" (phase Pending) and can not be deleted");
    }

    @Test
    void defaultQueueCanNotBeDeleted() throws IOException {
        Run r = lahar(
                "admit",
                "--delete",
                "-f",
                file("q.yaml", "apiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\nmetadata: {name: default}\n")
                        .toString());
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.errLines()).containsExactly("error: metadata.name: `default` queue can not be deleted");
    }

    @Test
    void jsonOutput() {
        Run r = lahar(
                "admit", "-o", "json", "-f", EXAMPLES.resolve("mpi-pi.yaml").toString());
        assertThat(r.code()).isZero();
        assertThat(r.out()).startsWith("{\"apiVersion\":\"batch.volcano.sh/v1alpha1\"");
    }
}
