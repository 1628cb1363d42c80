package io.lahar.streams;

import static io.lahar.streams.TestManifests.job;
import static io.lahar.streams.TestManifests.task;
import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.admission.AdmissionLimits;
import io.lahar.schema.CommandResult;
import io.lahar.schema.DeadLetter;
import io.lahar.schema.FlowCommand;
import io.lahar.schema.FlowKind;
import io.lahar.schema.JobCommand;
import io.lahar.schema.JobStatusRecord;
import io.lahar.schema.PodGroup;
import io.lahar.schema.SubmitFlowObject;
import io.lahar.schema.Topics;
import io.lahar.schema.UpdateJob;
import io.lahar.schema.Violation;
import io.lahar.schema.serde.RegistrySerdes;
import io.lahar.testkit.LaharInfra;
import io.lahar.testkit.WithLaharInfra;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Properties;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Users' numbers are hostile, through the whole topology: a job asking for more pods than the
 * limit, or replicas whose int sum wraps, or a manifest whose state would not fit in a record, is
 * answered on {@code lahar.command-results} with the violation — nothing dead-lettered, nothing
 * allocated — and the next job goes through as usual. Fields a manifest's kind does not have are
 * dropped and answered as warnings.
 */
@WithLaharInfra
class BoundedAdmissionDriverIT {

    /** The drivers' state directories, removed after the test. */
    @TempDir
    Path stateDirs;

    private static final long T0 = Instant.parse("2026-12-01T10:00:00Z").toEpochMilli();

    private TopologyTestDriver driver;
    private TestInputTopic<String, JobCommand> commands;
    private TestInputTopic<String, FlowCommand> flowCommands;
    private TestOutputTopic<String, CommandResult> results;
    private TestOutputTopic<String, JobStatusRecord> status;
    private TestOutputTopic<String, PodGroup> podGroups;
    private TestOutputTopic<String, io.lahar.schema.JobTemplate> templates;
    private TestOutputTopic<String, DeadLetter> letters;

    @BeforeEach
    void start(LaharInfra infra) throws Exception {
        start(infra, AdmissionLimits.DEFAULTS);
    }

    private void start(LaharInfra infra, AdmissionLimits limits) throws Exception {
        if (driver != null) {
            driver.close();
        }
        RegistrySerdes serdes = new RegistrySerdes(infra.registryUrl());
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "bounded-admission-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(
                StreamsConfig.STATE_DIR_CONFIG,
                Files.createTempDirectory(stateDirs, "bounded-admission").toString());
        driver = new TopologyTestDriver(LaharTopology.build(serdes, limits), props);
        commands = driver.createInputTopic(
                Topics.JOB_COMMANDS.name(),
                new StringSerializer(),
                serdes.value(JobCommand.class).serializer());
        flowCommands = driver.createInputTopic(
                Topics.FLOW_COMMANDS.name(),
                new StringSerializer(),
                serdes.value(FlowCommand.class).serializer());
        results = output(Topics.COMMAND_RESULTS, serdes, CommandResult.class);
        status = output(Topics.JOB_STATUS, serdes, JobStatusRecord.class);
        podGroups = output(Topics.POD_GROUPS, serdes, PodGroup.class);
        templates = output(Topics.JOB_TEMPLATES, serdes, io.lahar.schema.JobTemplate.class);
        letters = output(Topics.DEAD_LETTERS, serdes, DeadLetter.class);
    }

    @AfterEach
    void stop() {
        driver.close();
    }

    private <T extends SpecificRecord> TestOutputTopic<String, T> output(
            Topics.TopicSpec topic, RegistrySerdes serdes, Class<T> type) {
        return driver.createOutputTopic(
                topic.name(), new StringDeserializer(), serdes.value(type).deserializer());
    }

    private CommandResult submit(String name, String manifest) {
        commands.pipeInput("default/" + name, LifecycleScript.submit("submit-" + name, name, manifest, T0));
        return results.readValuesToList().getLast();
    }

    private static List<String> reasons(CommandResult result) {
        return result.getViolations().stream()
                .map(v -> v.getPath() + ": " + v.getMessage())
                .toList();
    }

    private void assertTheNextJobGoesThrough() {
        CommandResult ok = submit("after", job("after", task("worker", 2, "")));
        assertThat(ok.getAccepted()).as("%s", ok.getViolations()).isTrue();
        assertThat(status.readValuesToList())
                .extracting(JobStatusRecord::getName)
                .contains("after");
        assertThat(letters.readValuesToList()).isEmpty();
    }

    @Test
    void theLargestIntOfReplicasIsRefusedWithItsPathAndTheStreamGoesOn() {
        CommandResult r = submit("huge", job("huge", task("worker", Integer.MAX_VALUE, "")));
        assertThat(r.getAccepted()).isFalse();
        assertThat(reasons(r))
                .containsExactly(
                        "spec.tasks[0].replicas: must be no more than 5000, the limit of pods per job (was 2147483647)",
                        "spec.tasks: the tasks' replicas sum to 2147483647 pods, over the limit of 5000 pods per job");
        assertThat(status.readValuesToList()).isEmpty();
        assertThat(podGroups.readValuesToList()).isEmpty();
        assertTheNextJobGoesThrough();
    }

    @Test
    void replicasWhoseIntSumWrapsAreRefused() {
        CommandResult r = submit(
                "wraps",
                job("wraps", task("a", Integer.MAX_VALUE, "") + task("b", Integer.MAX_VALUE, "") + task("c", 4, "")));
        assertThat(r.getAccepted()).isFalse();
        assertThat(reasons(r))
                .contains(
                        "spec.tasks: the tasks' replicas sum to 4294967298 pods, over the limit of 5000 pods per job");
        assertTheNextJobGoesThrough();
    }

    @Test
    void anUpdateMayNotScalePastTheLimit() {
        assertThat(submit("scaled", job("scaled", task("worker", 2, ""))).getAccepted())
                .isTrue();
        commands.pipeInput(
                "default/scaled",
                JobCommand.newBuilder()
                        .setRequestId("scale")
                        .setSender("test")
                        .setNamespace("default")
                        .setName("scaled")
                        .setTime(Instant.ofEpochMilli(T0 + 1000))
                        .setCommand(new UpdateJob(job("scaled", task("worker", 6000, ""))))
                        .build());
        CommandResult r = results.readValuesToList().getLast();
        assertThat(r.getAccepted()).isFalse();
        assertThat(reasons(r))
                .contains("spec.tasks[0].replicas: must be no more than 5000, the limit of pods per job (was 6000)");
        assertThat(letters.readValuesToList()).isEmpty();
    }

    @Test
    void theLimitIsConfigurable(LaharInfra infra) throws Exception {
        start(infra, new AdmissionLimits(10));
        assertThat(reasons(submit("eleven", job("eleven", task("worker", 11, "")))))
                .contains("spec.tasks[0].replicas: must be no more than 10, the limit of pods per job (was 11)");
        assertThat(submit("ten", job("ten", task("a", 6, "") + task("b", 4, "")))
                        .getAccepted())
                .isTrue();
    }

    @Test
    void aJobWhoseStateWouldNotFitInARecordIsRefusedWithTheSizeBeforeAnythingIsWritten() {
        // About 450 KB of pod template: the job's state holds the manifest twice (the job and the
        // answer kept for retries), over what a command may leave it at.
        CommandResult r = submit("fat", job("fat", task("worker", 1, "x".repeat(450_000))));
        assertThat(r.getAccepted()).isFalse();
        assertThat(r.getViolations()).singleElement().satisfies(v -> {
            assertThat(v.getPath()).isEqualTo("manifest");
            assertThat(v.getMessage())
                    .matches("too large: the job's state would be \\d+ bytes, over the limit of 790528 bytes"
                            + " after a create or an update \\(one record holds at most 921600 bytes; the rest is kept for its pods and"
                            + " status\\): make the manifest smaller");
        });
        assertThat(status.readValuesToList()).isEmpty();
        assertThat(podGroups.readValuesToList()).isEmpty();
        // No trace: the same name is free for a job that fits.
        assertThat(submit("fat", job("fat", task("worker", 1, "small"))).getAccepted())
                .isTrue();
        assertTheNextJobGoesThrough();
    }

    @Test
    void unknownFieldsAreDroppedAndAnsweredAsWarningsAlsoOnARetry() {
        String manifest = """
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata:
                  name: warned
                spec:
                  minAvailabel: 1
                  tasks:
                  - name: worker
                    replica: 3
                    replicas: 1
                    template:
                      spec:
                        containers:
                        - name: c
                          image: busybox
                """;
        String json = io.lahar.core.api.Manifests.toJson(
                io.lahar.core.api.Manifests.readTrees(manifest).getFirst());
        CommandResult r = submit("warned", json);
        assertThat(r.getAccepted()).isTrue();
        assertThat(r.getWarnings())
                .containsExactly("unknown field \"spec.minAvailabel\"", "unknown field \"spec.tasks[0].replica\"");
        assertThat(r.getManifest()).doesNotContain("minAvailabel").doesNotContain("\"replica\"");
        // The same request again is answered from the remembered verdict, warnings and all.
        commands.pipeInput("default/warned", LifecycleScript.submit("submit-warned", "warned", json, T0));
        assertThat(results.readValuesToList().getLast().getWarnings()).hasSize(2);

        CommandResult rejected = submit(
                "warned-bad",
                json.replace("\"warned\"", "\"warned-bad\"").replace("\"replicas\":1", "\"replicas\":-1"));
        assertThat(rejected.getAccepted()).isFalse();
        assertThat(rejected.getWarnings()).hasSize(2);
    }

    @Test
    void aTemplateWhoseStateWouldNotFitIsRefusedAndNeverPublished() {
        String template = """
                apiVersion: flow.volcano.sh/v1alpha1
                kind: JobTemplate
                metadata:
                  name: fat
                  namespace: default
                spec:
                  tasks:
                %s""".formatted(task("worker", 1, "x".repeat(800_000)).indent(2));
        String json = io.lahar.core.api.Manifests.toJson(
                io.lahar.core.api.Manifests.readTrees(template).getFirst());
        flowCommands.pipeInput(
                "default/fat",
                FlowCommand.newBuilder()
                        .setRequestId("t1")
                        .setSender("test")
                        .setNamespace("default")
                        .setName("fat")
                        .setTime(Instant.ofEpochMilli(T0))
                        .setKind(FlowKind.JobTemplate)
                        .setCommand(new SubmitFlowObject(json))
                        .build());
        CommandResult r = results.readValuesToList().getLast();
        assertThat(r.getAccepted()).isFalse();
        assertThat(r.getViolations()).extracting(Violation::getPath).containsExactly("manifest");
        assertThat(r.getViolations().getFirst().getMessage())
                .startsWith("too large: the jobtemplate's state would be ");
        assertThat(templates.readValuesToList()).isEmpty();
        assertThat(letters.readValuesToList()).isEmpty();
    }
}
