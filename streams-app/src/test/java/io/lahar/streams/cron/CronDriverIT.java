package io.lahar.streams.cron;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.api.Manifests;
import io.lahar.schema.CommandResult;
import io.lahar.schema.CronJobCommand;
import io.lahar.schema.CronJobStatusRecord;
import io.lahar.schema.DeadLetter;
import io.lahar.schema.DeleteCronJob;
import io.lahar.schema.DeleteJob;
import io.lahar.schema.JobCommand;
import io.lahar.schema.PodEvent;
import io.lahar.schema.PodGroup;
import io.lahar.schema.PodIntent;
import io.lahar.schema.SchedulerDecision;
import io.lahar.schema.SubmitCronJob;
import io.lahar.schema.SubmitJob;
import io.lahar.schema.SuspendCronJob;
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
import java.util.List;
import java.util.Properties;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
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
 * The CronJob engine under TopologyTestDriver (the whole streams-app topology, the real registry,
 * no broker): ticks on {@code lahar.cron-clock} create the jobs of the scheduled minutes through
 * {@code lahar.job-commands}, the job lifecycle admits and runs them (the test plays scheduler and
 * kubelet, {@link DriverWorld}) and hands what becomes of them back to the CronJob; Forbid,
 * Replace, history limits, job admission's refusals, a job deleted by someone else, suspend, and
 * a replay of the same records giving the same commands.
 */
@WithLaharInfra
class CronDriverIT {

    /** The drivers' state directories, removed after the test. */
    @TempDir
    Path stateDirs;

    static final long T0 = Instant.parse("2026-11-29T10:00:00Z").toEpochMilli();
    static final long MIN = 60_000;

    private RegistrySerdes serdes;
    private TopologyTestDriver driver;
    private TestInputTopic<String, CronJobCommand> cronCommands;
    private TestInputTopic<String, Tick> clock;
    private TestInputTopic<String, JobCommand> userJobCommands;
    private DriverWorld world;
    private TestOutputTopic<String, CommandResult> results;
    private TestOutputTopic<String, JobCommand> jobCommands;
    private TestOutputTopic<String, CronJobStatusRecord> status;
    private TestOutputTopic<String, DeadLetter> letters;
    private final List<CommandResult> jobAnswers = new ArrayList<>();

    @BeforeEach
    void start(LaharInfra infra) throws Exception {
        serdes = new RegistrySerdes(infra.registryUrl());
        open("cron-driver-test");
    }

    private void open(String applicationId) throws Exception {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(
                StreamsConfig.STATE_DIR_CONFIG,
                Files.createTempDirectory(stateDirs, "cron-driver").toString());
        driver = new TopologyTestDriver(LaharTopology.build(serdes), props);
        cronCommands = input(Topics.CRONJOB_COMMANDS, CronJobCommand.class);
        clock = input(Topics.CRON_CLOCK, Tick.class);
        userJobCommands = input(Topics.JOB_COMMANDS, JobCommand.class);
        world = new DriverWorld(
                "",
                T0,
                input(Topics.POD_EVENTS, PodEvent.class),
                input(Topics.SCHEDULER_DECISIONS, SchedulerDecision.class),
                output(Topics.POD_INTENTS, PodIntent.class),
                output(Topics.POD_GROUPS, PodGroup.class));
        results = output(Topics.COMMAND_RESULTS, CommandResult.class);
        jobCommands = output(Topics.JOB_COMMANDS, JobCommand.class);
        status = output(Topics.CRONJOB_STATUS, CronJobStatusRecord.class);
        letters = output(Topics.DEAD_LETTERS, DeadLetter.class);
    }

    @AfterEach
    void stop() {
        driver.close();
    }

    private <T extends SpecificRecord> TestInputTopic<String, T> input(Topics.TopicSpec topic, Class<T> type) {
        return driver.createInputTopic(
                topic.name(), new StringSerializer(), serdes.value(type).serializer());
    }

    private <T extends SpecificRecord> TestOutputTopic<String, T> output(Topics.TopicSpec topic, Class<T> type) {
        return driver.createOutputTopic(
                topic.name(), new StringDeserializer(), serdes.value(type).deserializer());
    }

    static String cronJob(String name, String spec) {
        return Manifests.toJson(
                Manifests.readTrees("""
                apiVersion: batch.volcano.sh/v1alpha1
                kind: CronJob
                metadata: {name: %s, namespace: default}
                spec:
                %s
                  jobTemplate:
                    metadata:
                      labels: {app: hello}
                    spec:
                      minAvailable: 1
                      tasks:
                      - name: main
                        replicas: 1
                        template:
                          spec:
                            restartPolicy: Never
                            containers: [{name: c, image: busybox}]
                """.formatted(name, spec.indent(2).stripTrailing()))
                        .getFirst());
    }

    static CronJobCommand command(String requestId, String name, Object body, long time) {
        return CronJobCommand.newBuilder()
                .setRequestId(requestId)
                .setSender("test")
                .setNamespace("default")
                .setName(name)
                .setTime(Instant.ofEpochMilli(time))
                .setCommand(body)
                .build();
    }

    private void submit(String requestId, String name, String spec, long time) {
        cronCommands.pipeInput(
                "default/" + name, command(requestId, name, new SubmitCronJob(cronJob(name, spec)), time));
    }

    /** A tick into partition 0 (TopologyTestDriver has one task per sub-topology). */
    private void tick(long time) {
        clock.pipeInput(Topics.clockKey(0), new Tick(Instant.ofEpochMilli(time)));
        world.advanceTo(time);
        world.settle();
    }

    /** The answers to CronJob commands; the job engine's answers to the CronJobs' job commands are kept aside. */
    private List<CommandResult> cronResults() {
        List<CommandResult> out = new ArrayList<>();
        for (CommandResult r : results.readValuesToList()) {
            (r.getSender() != null && r.getSender().startsWith("cronjob:") ? jobAnswers : out).add(r);
        }
        return out;
    }

    /** The job commands the CronJobs wrote since the last call, as "Submit x" / "Delete x". */
    private List<String> jobCommandsWritten() {
        List<String> out = new ArrayList<>();
        for (KeyValue<String, JobCommand> kv : jobCommands.readKeyValuesToList()) {
            JobCommand c = kv.value;
            if (!c.getSender().startsWith("cronjob:")) {
                continue; // the test's own
            }
            assertThat(kv.key).isEqualTo("default/" + c.getName());
            out.add((c.getCommand() instanceof SubmitJob
                            ? "Submit "
                            : c.getCommand() instanceof DeleteJob ? "Delete " : "? ")
                    + c.getName());
        }
        return out;
    }

    private CronJobStatusRecord lastStatus() {
        CronJobStatusRecord last = null;
        for (KeyValue<String, CronJobStatusRecord> kv : status.readKeyValuesToList()) {
            last = kv.value;
        }
        return last;
    }

    static String job(String cron, long scheduled) {
        return cron + "-" + scheduled / MIN;
    }

    @Test
    void ticksCreateTheJobsOfTheScheduledMinutesAndForbidWaitsForTheActiveOne() {
        submit("c-1", "hello", """
                schedule: "*/2 * * * *"
                concurrencyPolicy: Forbid
                startingDeadlineSeconds: 30
                successfulJobsHistoryLimit: 1
                """, T0);
        assertThat(cronResults()).singleElement().satisfies(r -> {
            assertThat(r.getAccepted()).as("%s", r.getViolations()).isTrue();
            assertThat(r.getKind()).isEqualTo("SubmitCronJob");
            assertThat(r.getManifest()).contains("\"failedJobsHistoryLimit\":1", "\"suspend\":false");
        });
        assertThat(lastStatus().getNextScheduleTime()).isEqualTo(Instant.ofEpochMilli(T0 + 2 * MIN));

        tick(T0 + MIN);
        assertThat(jobCommandsWritten()).isEmpty();
        tick(T0 + 2 * MIN + 400);
        assertThat(jobCommandsWritten()).containsExactly("Submit " + job("hello", T0 + 2 * MIN));
        assertThat(cronResults()).isEmpty();
        assertThat(jobAnswers)
                .singleElement()
                .satisfies(r ->
                        assertThat(r.getAccepted()).as("%s", r.getViolations()).isTrue());
        CronJobStatusRecord created = lastStatus();
        assertThat(created.getStatus().getActive())
                .extracting(a -> a.getName())
                .containsExactly(job("hello", T0 + 2 * MIN));
        assertThat(created.getStatus().getLastScheduleTime()).isEqualTo(Instant.ofEpochMilli(T0 + 2 * MIN));

        // The job runs; at 10:04 Forbid skips the run.
        world.allPods(job("hello", T0 + 2 * MIN), "Running");
        tick(T0 + 4 * MIN + 100);
        assertThat(jobCommandsWritten()).isEmpty();
        assertThat(lastStatus().getEvents()).extracting(e -> e.getReason()).contains("ForbidConcurrent");

        // It completes within the 30 s deadline of 10:04: that run starts late, at once.
        world.advanceTo(T0 + 4 * MIN + 10_000);
        world.allPods(job("hello", T0 + 2 * MIN), "Succeeded");
        assertThat(jobCommandsWritten()).containsExactly("Submit " + job("hello", T0 + 4 * MIN));
        CronJobStatusRecord late = lastStatus();
        assertThat(late.getStatus().getLastSuccessfulTime()).isNotNull();
        assertThat(late.getEvents()).extracting(e -> e.getReason()).contains("SawCompletedJob");

        // The second completes: successfulJobsHistoryLimit 1 deletes the first.
        world.allPods(job("hello", T0 + 4 * MIN), "Running");
        world.allPods(job("hello", T0 + 4 * MIN), "Succeeded");
        assertThat(jobCommandsWritten()).containsExactly("Delete " + job("hello", T0 + 2 * MIN));
        assertThat(lastStatus().getJobs())
                .extracting(j -> j.getName() + " " + j.getPhase())
                .containsExactly(job("hello", T0 + 4 * MIN) + " Completed");
        assertThat(letters.readValuesToList()).isEmpty();
    }

    @Test
    void replaceDeletesTheActiveJobAndSuspendStopsNewRuns() {
        submit("c-1", "rep", "schedule: \"* * * * *\"\nconcurrencyPolicy: Replace", T0);
        assertThat(cronResults())
                .singleElement()
                .satisfies(r -> assertThat(r.getAccepted()).isTrue());
        tick(T0 + MIN);
        assertThat(jobCommandsWritten()).containsExactly("Submit " + job("rep", T0 + MIN));
        tick(T0 + 2 * MIN);
        assertThat(jobCommandsWritten())
                .containsExactly("Delete " + job("rep", T0 + MIN), "Submit " + job("rep", T0 + 2 * MIN));
        assertThat(lastStatus().getEvents())
                .extracting(e -> e.getReason())
                .contains("ReplaceConcurrent", "SuccessfulDelete", "SuccessfulCreate");

        cronCommands.pipeInput("default/rep", command("s-1", "rep", new SuspendCronJob(true), T0 + 2 * MIN + 5_000));
        assertThat(cronResults()).singleElement().satisfies(r -> {
            assertThat(r.getKind()).isEqualTo("SuspendCronJob");
            assertThat(r.getAccepted()).isTrue();
        });
        assertThat(lastStatus().getNextScheduleTime()).isNull();
        tick(T0 + 3 * MIN);
        tick(T0 + 4 * MIN);
        assertThat(jobCommandsWritten()).isEmpty();
        cronCommands.pipeInput("default/rep", command("s-2", "rep", new SuspendCronJob(false), T0 + 4 * MIN + 1_000));
        assertThat(jobCommandsWritten())
                .as("resumed: the latest missed run")
                .containsExactly("Delete " + job("rep", T0 + 2 * MIN), "Submit " + job("rep", T0 + 4 * MIN));
        assertThat(cronResults())
                .singleElement()
                .satisfies(r -> assertThat(r.getRequestId()).isEqualTo("s-2"));

        // Deleting the CronJob deletes its jobs and tombstones its status; a retry is answered alike.
        cronCommands.pipeInput("default/rep", command("d-1", "rep", new DeleteCronJob("test"), T0 + 5 * MIN));
        cronCommands.pipeInput("default/rep", command("d-1", "rep", new DeleteCronJob("test"), T0 + 5 * MIN));
        assertThat(cronResults())
                .hasSize(2)
                .allSatisfy(r -> assertThat(r.getAccepted()).isTrue());
        assertThat(jobCommandsWritten()).containsExactly("Delete " + job("rep", T0 + 4 * MIN));
        assertThat(status.readKeyValuesToList())
                .last()
                .satisfies(kv -> assertThat(kv.value).isNull());
        tick(T0 + 6 * MIN);
        assertThat(jobCommandsWritten()).isEmpty();
    }

    @Test
    void aJobThatJobAdmissionRefusesAndAJobDeletedBySomeoneElseAreEventsOnTheCronJob() {
        submit("c-1", "gpu", "schedule: \"* * * * *\"", T0);
        cronResults();
        // The template names a queue that does not exist: every job is refused by job admission.
        String refused = cronJob("gpu", "schedule: \"* * * * *\"")
                .replace("\"minAvailable\":1", "\"minAvailable\":1,\"queue\":\"gpu\"");
        cronCommands.pipeInput("default/gpu", command("c-2", "gpu", new SubmitCronJob(refused), T0 + 1_000));
        assertThat(cronResults())
                .singleElement()
                .satisfies(r ->
                        assertThat(r.getAccepted()).as("%s", r.getViolations()).isTrue());
        tick(T0 + MIN);
        assertThat(jobCommandsWritten()).containsExactly("Submit " + job("gpu", T0 + MIN));
        CronJobStatusRecord failed = lastStatus();
        assertThat(failed.getStatus().getActive()).isEmpty();
        assertThat(failed.getEvents()).anySatisfy(e -> {
            assertThat(e.getReason()).isEqualTo("FailedCreate");
            assertThat(e.getMessage()).contains("spec.queue").contains("\"gpu\"");
        });

        // Back to the default queue; the job of 10:02 runs, and someone deletes it.
        cronCommands.pipeInput(
                "default/gpu",
                command(
                        "c-3",
                        "gpu",
                        new SubmitCronJob(cronJob("gpu", "schedule: \"* * * * *\"\nconcurrencyPolicy: Forbid")),
                        T0 + MIN + 1_000));
        cronResults();
        tick(T0 + 2 * MIN);
        assertThat(jobCommandsWritten()).containsExactly("Submit " + job("gpu", T0 + 2 * MIN));
        userJobCommands.pipeInput(
                "default/" + job("gpu", T0 + 2 * MIN),
                JobCommand.newBuilder()
                        .setRequestId("user-del")
                        .setSender("user")
                        .setNamespace("default")
                        .setName(job("gpu", T0 + 2 * MIN))
                        .setTime(Instant.ofEpochMilli(T0 + 2 * MIN + 5_000))
                        .setCommand(new DeleteJob("by hand"))
                        .build());
        world.settle();
        CronJobStatusRecord stale = lastStatus();
        assertThat(stale.getEvents()).extracting(e -> e.getReason()).contains("StaleReference");
        assertThat(stale.getStatus().getActive()).isEmpty();
        tick(T0 + 3 * MIN);
        assertThat(jobCommandsWritten())
                .as("Forbid waits for no job that is gone")
                .containsExactly("Submit " + job("gpu", T0 + 3 * MIN));
    }

    @Test
    void badCommandsAreAnsweredWithThePathOrDeadLettered() {
        submit("bad-1", "bad", "schedule: \"*/5 * * *\"", T0);
        assertThat(cronResults()).singleElement().satisfies(r -> {
            assertThat(r.getAccepted()).isFalse();
            assertThat(r.getViolations())
                    .extracting(v -> v.getPath() + ": " + v.getMessage())
                    .containsExactly(
                            "spec.schedule: schedule is not a valid cron expression: expected exactly 5 fields, found 4: [*/5 * * *]");
        });
        cronCommands.pipeInput("default/none", command("s-1", "none", new SuspendCronJob(true), T0));
        assertThat(cronResults())
                .singleElement()
                .satisfies(r -> assertThat(r.getViolations())
                        .extracting(v -> v.getMessage())
                        .containsExactly("cronjob \"none\" not found in namespace default"));
        driver.createInputTopic(Topics.CRONJOB_COMMANDS.name(), new StringSerializer(), new ByteArraySerializer())
                .pipeInput("default/x", "not avro".getBytes(StandardCharsets.UTF_8));
        assertThat(letters.readValuesToList())
                .singleElement()
                .satisfies(l -> assertThat(l.getTopic()).isEqualTo(Topics.CRONJOB_COMMANDS.name()));
        // A command keyed as another CronJob is answered under its own key, and dead-lettered.
        cronCommands.pipeInput("default/other", command("k-1", "keyed", new SuspendCronJob(true), T0));
        assertThat(results.readKeyValuesToList()).singleElement().satisfies(kv -> {
            assertThat(kv.key).isEqualTo("default/keyed");
            assertThat(kv.value.getViolations()).extracting(v -> v.getPath()).containsExactly("key");
        });
        assertThat(letters.readValuesToList())
                .singleElement()
                .satisfies(l -> assertThat(l.getError()).contains("key: record key"));
        assertThat(status.readValuesToList()).isEmpty();
    }

    /** A field a CronJob does not have is dropped and named in the answer's warnings, as the API server warns. */
    @Test
    void anUnknownFieldIsDroppedWithAWarning() {
        submit("w-1", "typo", "schedule: \"*/5 * * * *\"\nstartingDeadlineSecond: 60", T0);
        assertThat(cronResults()).singleElement().satisfies(r -> {
            assertThat(r.getAccepted()).isTrue();
            assertThat(r.getWarnings()).containsExactly("unknown field \"spec.startingDeadlineSecond\"");
        });
        assertThat(lastStatus().getManifest()).doesNotContain("startingDeadlineSecond");
    }

    /** The same records, replayed into a fresh topology, give the same job commands: time is in the log. */
    @Test
    void aReplayOfTheSameRecordsGivesTheSameCommands() throws Exception {
        List<String> first = run();
        stop();
        open("cron-driver-replay");
        List<String> second = run();
        assertThat(first).hasSize(6);
        assertThat(second).isEqualTo(first);
    }

    private List<String> run() {
        submit(
                "c-1",
                "again",
                "schedule: \"*/2 * * * *\"\nsuccessfulJobsHistoryLimit: 0\nfailedJobsHistoryLimit: 0",
                T0);
        for (long t = T0 + 20_000; t <= T0 + 12 * MIN; t += 20_000) {
            clock.pipeInput(Topics.clockKey(0), new Tick(Instant.ofEpochMilli(t)));
        }
        List<String> out = new ArrayList<>();
        for (JobCommand c : jobCommands.readValuesToList()) {
            if (c.getSender().startsWith("cronjob:")) {
                out.add(c.getRequestId() + " " + c.getName() + " " + c.getTime() + " " + c.getCommand());
            }
        }
        return out;
    }
}
