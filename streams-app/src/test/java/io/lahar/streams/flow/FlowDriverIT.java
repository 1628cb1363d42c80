package io.lahar.streams.flow;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.api.Manifests;
import io.lahar.schema.CommandResult;
import io.lahar.schema.DeadLetter;
import io.lahar.schema.DeleteFlowObject;
import io.lahar.schema.DeleteJob;
import io.lahar.schema.FlowCommand;
import io.lahar.schema.FlowKind;
import io.lahar.schema.JobCommand;
import io.lahar.schema.JobFlowStatusRecord;
import io.lahar.schema.JobStatusRecord;
import io.lahar.schema.PodEvent;
import io.lahar.schema.PodGroup;
import io.lahar.schema.PodIntent;
import io.lahar.schema.SchedulerDecision;
import io.lahar.schema.SubmitFlowObject;
import io.lahar.schema.SubmitJob;
import io.lahar.schema.Tick;
import io.lahar.schema.Topics;
import io.lahar.schema.serde.RegistrySerdes;
import io.lahar.streams.DriverWorld;
import io.lahar.streams.LaharTopology;
import io.lahar.testkit.LaharInfra;
import io.lahar.testkit.WithLaharInfra;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The flow engine under TopologyTestDriver (the whole streams-app topology, the real registry, no
 * broker). The flow's SubmitJob and DeleteJob commands go to the job lifecycle as on a cluster;
 * the test plays the scheduler and the kubelet for the jobs ({@link DriverWorld}: pod groups
 * admitted, pods created and deleted at once, then every pod of a job Running, Succeeded or
 * Failed), and the lifecycle sends the statuses of the flow's jobs to the flow engine through the
 * repartition by flow key.
 */
@WithLaharInfra
class FlowDriverIT {

    /** The drivers' state directories, removed after the test. */
    @TempDir
    Path stateDirs;

    private static final long T0 = Instant.parse("2026-11-29T10:00:00Z").toEpochMilli();

    private TopologyTestDriver driver;
    private TestInputTopic<String, FlowCommand> flowCommands;
    private DriverWorld world;
    private TestOutputTopic<String, JobStatusRecord> jobStatus;
    private TestOutputTopic<String, byte[]> toFlows;
    private Deserializer<JobStatusRecord> statusDecoder;
    /** The phase of each job on lahar.job-status, as read there. */
    private final Map<String, String> jobPhases = new HashMap<>();

    private TestInputTopic<String, Tick> clock;
    private TestInputTopic<String, byte[]> rawFlowCommands;
    private TestOutputTopic<String, CommandResult> results;
    private TestOutputTopic<String, JobCommand> jobCommands;
    private TestOutputTopic<String, JobFlowStatusRecord> flowStatus;
    private TestOutputTopic<String, io.lahar.schema.JobTemplate> templates;
    private TestOutputTopic<String, DeadLetter> letters;
    /** The manifest of every job the flow asked for, by job name. */
    private final Map<String, String> created = new HashMap<>();
    /** The job engine's answers to the flow's own job commands, read while looking for the flows' answers. */
    private final List<CommandResult> jobAnswers = new ArrayList<>();

    private long time = T0;

    @BeforeEach
    void start(LaharInfra infra) throws Exception {
        RegistrySerdes serdes = new RegistrySerdes(infra.registryUrl());
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "flow-driver-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(
                StreamsConfig.STATE_DIR_CONFIG,
                Files.createTempDirectory(stateDirs, "flow-driver").toString());
        driver = new TopologyTestDriver(LaharTopology.build(serdes), props);
        flowCommands = input(Topics.FLOW_COMMANDS, serdes, FlowCommand.class);
        world = new DriverWorld(
                "",
                T0,
                input(Topics.POD_EVENTS, serdes, PodEvent.class),
                input(Topics.SCHEDULER_DECISIONS, serdes, SchedulerDecision.class),
                output(Topics.POD_INTENTS, serdes, PodIntent.class),
                output(Topics.POD_GROUPS, serdes, PodGroup.class));
        jobStatus = output(Topics.JOB_STATUS, serdes, JobStatusRecord.class);
        toFlows = driver.createOutputTopic(
                "flow-driver-test-" + FlowTopology.REPARTITION + "-repartition",
                new StringDeserializer(),
                new ByteArrayDeserializer());
        statusDecoder = serdes.value(JobStatusRecord.class).deserializer();
        clock = input(Topics.FLOW_CLOCK, serdes, Tick.class);
        rawFlowCommands =
                driver.createInputTopic(Topics.FLOW_COMMANDS.name(), new StringSerializer(), new ByteArraySerializer());
        results = output(Topics.COMMAND_RESULTS, serdes, CommandResult.class);
        jobCommands = output(Topics.JOB_COMMANDS, serdes, JobCommand.class);
        flowStatus = output(Topics.FLOW_STATUS, serdes, JobFlowStatusRecord.class);
        templates = output(Topics.JOB_TEMPLATES, serdes, io.lahar.schema.JobTemplate.class);
        letters = output(Topics.DEAD_LETTERS, serdes, DeadLetter.class);
    }

    @AfterEach
    void stop() {
        driver.close();
    }

    private <T extends SpecificRecord> TestInputTopic<String, T> input(
            Topics.TopicSpec topic, RegistrySerdes serdes, Class<T> type) {
        return driver.createInputTopic(
                topic.name(), new StringSerializer(), serdes.value(type).serializer());
    }

    private <T extends SpecificRecord> TestOutputTopic<String, T> output(
            Topics.TopicSpec topic, RegistrySerdes serdes, Class<T> type) {
        return driver.createOutputTopic(
                topic.name(), new StringDeserializer(), serdes.value(type).deserializer());
    }

    static FlowCommand submit(String requestId, FlowKind kind, String name, String manifestText, long time) {
        String json = Manifests.toJson(Manifests.readTrees(manifestText).getFirst());
        return FlowCommand.newBuilder()
                .setRequestId(requestId)
                .setSender("test")
                .setNamespace("default")
                .setName(name)
                .setTime(Instant.ofEpochMilli(time))
                .setKind(kind)
                .setCommand(new SubmitFlowObject(json))
                .build();
    }

    static FlowCommand delete(String requestId, FlowKind kind, String name, long time) {
        return FlowCommand.newBuilder()
                .setRequestId(requestId)
                .setSender("test")
                .setNamespace("default")
                .setName(name)
                .setTime(Instant.ofEpochMilli(time))
                .setKind(kind)
                .setCommand(new DeleteFlowObject("test"))
                .build();
    }

    /** The seed's five templates a..e, each answered accepted and published on lahar.job-templates. */
    private void submitTemplates() throws Exception {
        String all = Files.readString(Path.of("../examples/jobflow-templates.yaml"));
        for (String doc : all.split("(?m)^---$")) {
            String name = Manifests.readTrees(doc)
                    .getFirst()
                    .path("metadata")
                    .path("name")
                    .asText();
            flowCommands.pipeInput("default/" + name, submit("jt-" + name, FlowKind.JobTemplate, name, doc, time));
        }
        assertThat(flowResults())
                .hasSize(5)
                .allSatisfy(r ->
                        assertThat(r.getAccepted()).as("%s", r.getViolations()).isTrue());
        assertThat(templates.readKeyValuesToList())
                .extracting(kv -> kv.key)
                .containsExactly("default/a", "default/b", "default/c", "default/d", "default/e");
    }

    private String flowManifest(String name) throws Exception {
        return Files.readString(Path.of("../examples/jobflow.yaml")).replace("name: test", "name: " + name);
    }

    /** The answers to flow commands (the job engine also answers the flow's job commands, keyed by job). */
    private List<CommandResult> flowResults() {
        List<CommandResult> out = new ArrayList<>();
        for (CommandResult r : results.readValuesToList()) {
            (r.getSender().startsWith("jobflow:") ? jobAnswers : out).add(r);
        }
        return out;
    }

    /** The job commands the flow wrote since the last call, as "Submit x" / "Delete x"; remembers the manifests. */
    private List<String> jobCommandsWritten() {
        List<String> out = new ArrayList<>();
        for (KeyValue<String, JobCommand> kv : jobCommands.readKeyValuesToList()) {
            JobCommand c = kv.value;
            assertThat(kv.key).isEqualTo("default/" + c.getName());
            assertThat(c.getSender()).startsWith("jobflow:default/");
            switch (c.getCommand()) {
                case SubmitJob s -> {
                    created.put(c.getName(), s.getManifest());
                    out.add("Submit " + c.getName());
                }
                case DeleteJob d -> out.add("Delete " + c.getName());
                default -> out.add(c.getCommand().getClass().getSimpleName() + " " + c.getName());
            }
        }
        return out;
    }

    /**
     * The job reaches {@code phase} (Running, Completed or Failed) a second later: the world admits
     * its gang and creates its pods, then every pod of it is Running, Succeeded or Failed.
     */
    private void phase(String job, String phase) {
        world.advanceTo(time);
        world.settle();
        world.allPods(
                job,
                switch (phase) {
                    case "Running" -> "Running";
                    case "Completed" -> "Succeeded";
                    case "Failed" -> "Failed";
                    default -> throw new IllegalArgumentException("no pod phase makes a job " + phase);
                });
        time = world.time();
        for (KeyValue<String, JobStatusRecord> kv : jobStatus.readKeyValuesToList()) {
            if (kv.value != null) {
                jobPhases.put(
                        kv.value.getName(), kv.value.getStatus().getState().getPhase());
            }
        }
        assertThat(jobPhases.get(job)).as("the phase of job %s", job).isEqualTo(phase);
    }

    private JobFlowStatusRecord lastStatus(String key) {
        JobFlowStatusRecord last = null;
        for (KeyValue<String, JobFlowStatusRecord> kv : flowStatus.readKeyValuesToList()) {
            if (kv.key.equals(key)) {
                last = kv.value;
            }
        }
        return last;
    }

    @Test
    void theSeedDagRunsCAndDTogetherAndEOnlyAfterBothThenSucceedsAndDeletesItsJobs() throws Exception {
        submitTemplates();
        flowCommands.pipeInput("default/test", submit("jf-1", FlowKind.JobFlow, "test", flowManifest("test"), time));
        assertThat(flowResults()).singleElement().satisfies(r -> {
            assertThat(r.getAccepted()).as("%s", r.getViolations()).isTrue();
            assertThat(r.getKind()).isEqualTo("SubmitJobFlow");
            assertThat(r.getManifest()).contains("\"jobRetainPolicy\":\"delete\"");
        });
        assertThat(jobCommandsWritten()).containsExactly("Submit test-a");
        assertThat(created.get("test-a"))
                .contains("\"volcano.sh/createdByJobFlow\":\"default.test\"")
                .contains("\"volcano.sh/createdByJobTemplate\":\"default.a\"");
        assertThat(lastStatus("default/test").getStatus().getState().getPhase()).isEqualTo("Pending");

        phase("test-a", "Running");
        assertThat(jobCommandsWritten()).isEmpty();
        JobFlowStatusRecord running = lastStatus("default/test");
        assertThat(running.getStatus().getState().getPhase()).isEqualTo("Running");
        assertThat(running.getStatus().getRunningJobs()).containsExactly("test-a");
        assertThat(running.getStatus().getConditions().get("test-b").getPhase()).isEqualTo("Waiting");

        phase("test-a", "Completed");
        assertThat(jobCommandsWritten()).containsExactly("Submit test-b");
        phase("test-b", "Running");
        phase("test-b", "Completed");
        // c and d depend on b alone: both are created by the same status record, in parallel.
        assertThat(jobCommandsWritten()).containsExactly("Submit test-c", "Submit test-d");

        // A template an unfinished flow uses can not be deleted; the reason names the flow.
        flowCommands.pipeInput("default/e", delete("del-e", FlowKind.JobTemplate, "e", time));
        assertThat(flowResults()).singleElement().satisfies(r -> {
            assertThat(r.getAccepted()).isFalse();
            assertThat(r.getViolations())
                    .extracting(v -> v.getMessage())
                    .singleElement()
                    .asString()
                    .contains("jobflow \"test\"");
        });
        assertThat(templates.readKeyValuesToList()).isEmpty();

        phase("test-c", "Running");
        phase("test-d", "Running");
        phase("test-c", "Completed");
        // e needs c and d: c alone is not enough.
        assertThat(jobCommandsWritten()).isEmpty();
        JobFlowStatusRecord half = lastStatus("default/test");
        assertThat(half.getStatus().getCompletedJobs()).containsExactly("test-a", "test-b", "test-c");
        assertThat(half.getStatus().getRunningJobs()).containsExactly("test-d");
        assertThat(half.getStatus().getConditions().get("test-e").getPhase()).isEqualTo("Waiting");

        phase("test-d", "Completed");
        assertThat(jobCommandsWritten()).containsExactly("Submit test-e");
        phase("test-e", "Running");
        phase("test-e", "Completed");
        // Succeed, and jobRetainPolicy delete removes every job the flow created.
        assertThat(jobCommandsWritten())
                .containsExactlyInAnyOrder(
                        "Delete test-a", "Delete test-b", "Delete test-c", "Delete test-d", "Delete test-e");
        JobFlowStatusRecord done = lastStatus("default/test");
        assertThat(done.getStatus().getState().getPhase()).isEqualTo("Succeed");
        assertThat(done.getStatus().getCompletedJobs()).hasSize(5);
        assertThat(done.getStatus().getJobStatusList())
                .extracting(j -> j.getName())
                .containsExactly("test-a", "test-b", "test-c", "test-d", "test-e");

        // The template is no longer used by an unfinished flow: it can go now.
        flowCommands.pipeInput("default/e", delete("del-e-2", FlowKind.JobTemplate, "e", time));
        assertThat(flowResults())
                .singleElement()
                .satisfies(r ->
                        assertThat(r.getAccepted()).as("%s", r.getViolations()).isTrue());
        assertThat(templates.readKeyValuesToList()).singleElement().satisfies(kv -> {
            assertThat(kv.key).isEqualTo("default/e");
            assertThat(kv.value).isNull();
        });

        // A finished flow can be deleted: its status is tombstoned; the retried command is answered alike.
        flowCommands.pipeInput("default/test", delete("jf-del", FlowKind.JobFlow, "test", time));
        flowCommands.pipeInput("default/test", delete("jf-del", FlowKind.JobFlow, "test", time));
        assertThat(flowResults())
                .hasSize(2)
                .allSatisfy(r -> assertThat(r.getAccepted()).isTrue());
        List<KeyValue<String, JobFlowStatusRecord>> gone = flowStatus.readKeyValuesToList();
        assertThat(gone).singleElement().satisfies(kv -> assertThat(kv.value).isNull());
        assertThat(jobCommandsWritten()).isEmpty();
        assertThat(letters.readValuesToList()).isEmpty();
        // What the lifecycle handed the flow engine: its jobs' status records, under the flow's key.
        assertThat(toFlows.readKeyValuesToList()).isNotEmpty().allSatisfy(kv -> {
            assertThat(kv.key).isEqualTo("default/test");
            assertThat(statusDecoder
                            .deserialize(Topics.JOB_STATUS.name(), kv.value)
                            .getName())
                    .startsWith("test-");
        });
    }

    @Test
    void aRejectedFlowGetsEveryReasonAndNothingElseHappens() throws Exception {
        submitTemplates();
        String cyclic = Files.readString(Path.of("../examples/invalid-jobflow-cycle.yaml"));
        flowCommands.pipeInput("default/cyclic", submit("bad", FlowKind.JobFlow, "cyclic", cyclic, time));
        assertThat(flowResults()).singleElement().satisfies(r -> {
            assertThat(r.getRequestId()).isEqualTo("bad");
            assertThat(r.getAccepted()).isFalse();
            assertThat(r.getViolations())
                    .extracting(v -> v.getPath() + ": " + v.getMessage())
                    .anySatisfy(
                            v -> assertThat(v).startsWith("spec.flows[4].dependsOn.targets[0]: flow \"x\" not found"))
                    .anySatisfy(v ->
                            assertThat(v).startsWith("spec.flows: jobflow flows do not form a directed acyclic graph"));
        });
        assertThat(jobCommandsWritten()).isEmpty();
        assertThat(flowStatus.readValuesToList()).isEmpty();

        // An entry naming no JobTemplate of the namespace is refused too, once the grace a template
        // posted a moment before needs to become visible is over (the answer waits for it).
        String unknown =
                flowManifest("lost").replace("- name: e", "- name: nope").replace("- d\n", "- d\n");
        flowCommands.pipeInput("default/lost", submit("lost-1", FlowKind.JobFlow, "lost", unknown, time));
        assertThat(flowResults()).isEmpty();
        tick(time + 1_000);
        assertThat(flowResults()).isEmpty();
        tick(time + HeldSubmit.GRACE_MILLIS);
        assertThat(flowResults()).singleElement().satisfies(r -> {
            assertThat(r.getRequestId()).isEqualTo("lost-1");
            assertThat(r.getViolations())
                    .extracting(v -> v.getPath() + ": " + v.getMessage())
                    .containsExactly("spec.flows[4].name: jobtemplate \"nope\" not found in namespace default");
        });
        assertThat(jobCommandsWritten()).isEmpty();
        assertThat(flowStatus.readValuesToList()).isEmpty();
        // Sent again, it is answered alike, at once.
        flowCommands.pipeInput("default/lost", submit("lost-1", FlowKind.JobFlow, "lost", unknown, time));
        assertThat(flowResults())
                .singleElement()
                .satisfies(r -> assertThat(r.getAccepted()).isFalse());

        // A second flow of an existing name is refused (Volcano rejects JobFlow updates).
        flowCommands.pipeInput("default/twice", submit("t-1", FlowKind.JobFlow, "twice", flowManifest("twice"), time));
        flowCommands.pipeInput("default/twice", submit("t-2", FlowKind.JobFlow, "twice", flowManifest("twice"), time));
        List<CommandResult> answers = flowResults();
        assertThat(answers).extracting(CommandResult::getAccepted).containsExactly(true, false);
        assertThat(answers.get(1).getViolations())
                .extracting(v -> v.getMessage())
                .containsExactly("jobflow \"twice\" already exists");
        // Deleting it while it runs is refused (seed 001: only finished flows can be deleted).
        flowCommands.pipeInput("default/twice", delete("t-del", FlowKind.JobFlow, "twice", time));
        assertThat(flowResults())
                .singleElement()
                .satisfies(r -> assertThat(r.getAccepted()).isFalse());
    }

    @Test
    void aFailedJobWithRetryIsRecreatedWhenItsBackoffEndsOnAClockTick() throws Exception {
        submitTemplates();
        String flow = """
                apiVersion: flow.volcano.sh/v1alpha1
                kind: JobFlow
                metadata:
                  name: again
                  namespace: default
                spec:
                  flows:
                  - name: a
                    retry:
                      maxRetries: 1
                      backoff:
                        base: 30s
                  - name: b
                    dependsOn:
                      targets: [a]
                """;
        flowCommands.pipeInput("default/again", submit("again-1", FlowKind.JobFlow, "again", flow, time));
        assertThat(flowResults())
                .singleElement()
                .satisfies(r ->
                        assertThat(r.getAccepted()).as("%s", r.getViolations()).isTrue());
        assertThat(jobCommandsWritten()).containsExactly("Submit again-a");

        phase("again-a", "Running");
        phase("again-a", "Failed");
        long failedAt = time;
        // The failed job is deleted and waits out its backoff; the flow does not fail.
        assertThat(jobCommandsWritten()).containsExactly("Delete again-a");
        assertThat(lastStatus("default/again").getStatus().getState().getPhase())
                .isEqualTo("Running");

        clock.pipeInput(
                "0",
                Tick.newBuilder()
                        .setTime(Instant.ofEpochMilli(failedAt + 10_000))
                        .build(),
                failedAt + 10_000);
        assertThat(jobCommandsWritten()).isEmpty();
        clock.pipeInput(
                "0",
                Tick.newBuilder()
                        .setTime(Instant.ofEpochMilli(failedAt + 31_000))
                        .build(),
                failedAt + 31_000);
        assertThat(jobCommandsWritten()).containsExactly("Submit again-a");

        time = failedAt + 32_000;
        phase("again-a", "Completed");
        assertThat(jobCommandsWritten()).containsExactly("Submit again-b");
        JobFlowStatusRecord status = lastStatus("default/again");
        assertThat(status.getStatus().getJobStatusList())
                .filteredOn(j -> j.getName().equals("again-a"))
                .singleElement()
                .satisfies(j -> assertThat(j.getRestartCount()).isEqualTo(1));
        phase("again-b", "Completed");
        assertThat(lastStatus("default/again").getStatus().getState().getPhase())
                .isEqualTo("Succeed");
        // jobRetainPolicy defaults to retain: nothing is deleted.
        assertThat(jobCommandsWritten()).isEmpty();
    }

    private void tick(long at) {
        clock.pipeInput("0", Tick.newBuilder().setTime(Instant.ofEpochMilli(at)).build(), at);
    }

    @Test
    void aFlowWhoseTemplateIsNotVisibleYetIsHeldAndAdmittedOnceItIs() throws Exception {
        String flow = """
                apiVersion: flow.volcano.sh/v1alpha1
                kind: JobFlow
                metadata:
                  name: early
                  namespace: default
                spec:
                  flows:
                  - name: late
                """;
        // The flow arrives before its template is visible (a template posted a moment before it, still on its way).
        flowCommands.pipeInput("default/early", submit("early-1", FlowKind.JobFlow, "early", flow, time));
        assertThat(flowResults()).as("held: no answer yet").isEmpty();
        assertThat(jobCommandsWritten()).isEmpty();
        // The same request again waits for the same answer; another one for the same flow is a conflict.
        flowCommands.pipeInput("default/early", submit("early-1", FlowKind.JobFlow, "early", flow, time));
        assertThat(flowResults()).isEmpty();
        flowCommands.pipeInput("default/early", submit("early-2", FlowKind.JobFlow, "early", flow, time));
        assertThat(flowResults()).singleElement().satisfies(r -> {
            assertThat(r.getRequestId()).isEqualTo("early-2");
            assertThat(r.getAccepted()).isFalse();
            assertThat(r.getViolations())
                    .extracting(v -> v.getMessage())
                    .first()
                    .asString()
                    .endsWith("already exists");
        });

        submitTemplateInQueue("late", "default");
        tick(time + 1_000);
        assertThat(flowResults()).singleElement().satisfies(r -> {
            assertThat(r.getRequestId()).isEqualTo("early-1");
            assertThat(r.getAccepted()).as("%s", r.getViolations()).isTrue();
            assertThat(r.getKind()).isEqualTo("SubmitJobFlow");
        });
        assertThat(jobCommandsWritten()).containsExactly("Submit early-late");
        assertThat(lastStatus("default/early").getStatus().getState().getPhase())
                .isNotEqualTo("Failed");
        // Admitted: later ticks do not answer again, a retry gets the same answer.
        tick(time + 2_000);
        assertThat(flowResults()).isEmpty();
        flowCommands.pipeInput("default/early", submit("early-1", FlowKind.JobFlow, "early", flow, time));
        assertThat(flowResults())
                .singleElement()
                .satisfies(r -> assertThat(r.getAccepted()).isTrue());
        assertThat(jobCommandsWritten()).isEmpty();
    }

    /** A template whose job admission refuses: its queue does not exist. */
    private void submitTemplateInQueue(String name, String queue) {
        String doc = """
                apiVersion: flow.volcano.sh/v1alpha1
                kind: JobTemplate
                metadata:
                  name: %s
                spec:
                  minAvailable: 1
                  queue: %s
                  tasks:
                  - replicas: 1
                    name: worker
                    template:
                      spec:
                        containers:
                        - image: busybox
                          name: main
                        restartPolicy: Never
                """.formatted(name, queue);
        flowCommands.pipeInput("default/" + name, submit("jt-" + name, FlowKind.JobTemplate, name, doc, time));
        assertThat(flowResults())
                .singleElement()
                .satisfies(r ->
                        assertThat(r.getAccepted()).as("%s", r.getViolations()).isTrue());
        templates.readKeyValuesToList();
    }

    /** The job engine's answers to the flow's own job commands. */
    private List<CommandResult> jobResults() {
        flowResults().forEach(r -> {
            throw new AssertionError("unexpected answer to a flow command: " + r);
        });
        List<CommandResult> out = List.copyOf(jobAnswers);
        jobAnswers.clear();
        return out;
    }

    @Test
    void aJobThatAdmissionRejectsFailsTheFlowWithTheReasonsInItsCondition() throws Exception {
        submitTemplates();
        submitTemplateInQueue("lost", "no-such-queue");
        String flow = """
                apiVersion: flow.volcano.sh/v1alpha1
                kind: JobFlow
                metadata:
                  name: refused
                  namespace: default
                spec:
                  flows:
                  - name: lost
                  - name: b
                    dependsOn:
                      targets: [lost]
                """;
        flowCommands.pipeInput("default/refused", submit("refused-1", FlowKind.JobFlow, "refused", flow, time));
        assertThat(flowResults())
                .singleElement()
                .satisfies(r ->
                        assertThat(r.getAccepted()).as("%s", r.getViolations()).isTrue());
        // The job engine refused the job (the topology runs whole); the refusal came back to the flow.
        assertThat(jobResults()).singleElement().satisfies(r -> {
            assertThat(r.getName()).isEqualTo("refused-lost");
            assertThat(r.getAccepted()).isFalse();
        });
        assertThat(jobCommandsWritten()).containsExactly("Submit refused-lost");
        JobFlowStatusRecord status = lastStatus("default/refused");
        assertThat(status.getStatus().getState().getPhase()).isEqualTo("Failed");
        assertThat(status.getStatus().getFailedJobs()).containsExactly("refused-lost");
        assertThat(status.getStatus().getPendingJobs()).isEmpty();
        assertThat(status.getStatus().getConditions().get("refused-lost").getPhase())
                .isEqualTo("Failed");
        assertThat(status.getStatus().getConditions().get("refused-lost").getMessage())
                .contains("spec.queue: queue \"no-such-queue\" not found");
        // As when a job fails: what depends on it can never run.
        assertThat(status.getStatus().getConditions().get("refused-b").getPhase())
                .isEqualTo("Skipped");
        assertThat(status.getStatus().getConditions().get("refused-b").getMessage())
                .isNull();
        assertThat(letters.readValuesToList()).isEmpty();
    }

    @Test
    void aRejectedJobWithRetryIsCreatedAgainAfterItsBackoffAndFailsTheFlowWhenRetriesRunOut() throws Exception {
        submitTemplateInQueue("lost", "no-such-queue");
        String flow = """
                apiVersion: flow.volcano.sh/v1alpha1
                kind: JobFlow
                metadata:
                  name: stubborn
                  namespace: default
                spec:
                  flows:
                  - name: lost
                    retry:
                      maxRetries: 1
                      backoff:
                        base: 10s
                """;
        flowCommands.pipeInput("default/stubborn", submit("stubborn-1", FlowKind.JobFlow, "stubborn", flow, time));
        assertThat(flowResults())
                .singleElement()
                .satisfies(r -> assertThat(r.getAccepted()).isTrue());
        // Rejected: no delete (the job never existed), a backoff with the reason, the flow goes on.
        assertThat(jobCommandsWritten()).containsExactly("Submit stubborn-lost");
        JobFlowStatusRecord waiting = lastStatus("default/stubborn");
        assertThat(waiting.getStatus().getState().getPhase()).isNotEqualTo("Failed");
        assertThat(waiting.getStatus().getConditions().get("stubborn-lost").getPhase())
                .isEqualTo("Backoff");
        assertThat(waiting.getStatus().getConditions().get("stubborn-lost").getMessage())
                .contains("no-such-queue");

        clock.pipeInput(
                "0",
                Tick.newBuilder().setTime(Instant.ofEpochMilli(time + 11_000)).build(),
                time + 11_000);
        assertThat(jobCommandsWritten()).containsExactly("Submit stubborn-lost");
        assertThat(jobResults())
                .hasSize(2)
                .allSatisfy(r -> assertThat(r.getAccepted()).isFalse());
        JobFlowStatusRecord failed = lastStatus("default/stubborn");
        assertThat(failed.getStatus().getState().getPhase()).isEqualTo("Failed");
        assertThat(failed.getStatus().getJobStatusList())
                .singleElement()
                .satisfies(j -> assertThat(j.getRestartCount()).isEqualTo(1));
    }

    @Test
    void anUndecodableCommandGoesToTheDeadLetters() {
        rawFlowCommands.pipeInput("default/junk", "not avro".getBytes(StandardCharsets.UTF_8));
        assertThat(letters.readValuesToList()).singleElement().satisfies(l -> {
            assertThat(l.getTopic()).isEqualTo(Topics.FLOW_COMMANDS.name());
            assertThat(l.getError()).isNotBlank();
        });
        assertThat(flowResults()).isEmpty();
    }
}
