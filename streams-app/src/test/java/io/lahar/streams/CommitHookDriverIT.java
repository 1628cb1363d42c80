package io.lahar.streams;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.api.JobStatus;
import io.lahar.core.sim.ScriptStep;
import io.lahar.schema.CommandResult;
import io.lahar.schema.JobCommand;
import io.lahar.schema.JobStatusRecord;
import io.lahar.schema.PodEvent;
import io.lahar.schema.PodGroup;
import io.lahar.schema.PodIntent;
import io.lahar.schema.SchedulerDecision;
import io.lahar.schema.Topics;
import io.lahar.schema.serde.RegistrySerdes;
import io.lahar.streams.job.JobEntry;
import io.lahar.streams.job.JobStore;
import io.lahar.streams.job.kstreams.CommitHookStore;
import io.lahar.testkit.LaharInfra;
import io.lahar.testkit.WithLaharInfra;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Properties;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
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
 * The jobs store's commit hook under TopologyTestDriver, exactly-once: the driver commits the task's
 * transaction after each input, and what its output topics show is what was committed. After each
 * input the jobs store's changelog must hold the entry the store holds, and {@code lahar.job-status}
 * the job's status as of that entry. Should Kafka Streams stop calling the hook before it commits
 * (a Kafka upgrade: the hook is an internal interface), the entry and the status would be written
 * after the commit, in the next transaction, and this test fails at the first input.
 */
@WithLaharInfra
class CommitHookDriverIT {

    /** The drivers' state directories, removed after the test. */
    @TempDir
    Path stateDirs;

    private static final String APP = "commit-hook-driver-test";
    private static final long T0 = Instant.parse("2026-12-04T10:00:00Z").toEpochMilli();
    private static final String JOB = "hooked";
    private static final String KEY = Topics.jobKey("default", JOB);

    private TopologyTestDriver driver;
    private TestInputTopic<String, JobCommand> commands;
    private TestOutputTopic<String, CommandResult> results;
    private TestOutputTopic<String, JobStatusRecord> status;
    private TestOutputTopic<String, byte[]> changelog;
    private DriverWorld world;
    private byte[] lastChangelogged;
    private JobStatusRecord lastStatus;

    @BeforeEach
    void start(LaharInfra infra) throws Exception {
        RegistrySerdes serdes = new RegistrySerdes(infra.registryUrl());
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, APP);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(
                StreamsConfig.STATE_DIR_CONFIG,
                Files.createTempDirectory(stateDirs, "commit-hook-driver").toString());
        // A transactional producer: the driver's outputs are what each commit committed, no more.
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        driver = new TopologyTestDriver(LaharTopology.build(serdes), props);
        commands = driver.createInputTopic(
                Topics.JOB_COMMANDS.name(),
                new StringSerializer(),
                serdes.value(JobCommand.class).serializer());
        TestInputTopic<String, PodEvent> podEvents = driver.createInputTopic(
                Topics.POD_EVENTS.name(),
                new StringSerializer(),
                serdes.value(PodEvent.class).serializer());
        TestInputTopic<String, SchedulerDecision> decisions = driver.createInputTopic(
                Topics.SCHEDULER_DECISIONS.name(),
                new StringSerializer(),
                serdes.value(SchedulerDecision.class).serializer());
        results = output(Topics.COMMAND_RESULTS, serdes, CommandResult.class);
        status = output(Topics.JOB_STATUS, serdes, JobStatusRecord.class);
        changelog = driver.createOutputTopic(
                APP + "-" + JobStore.NAME + "-changelog", new StringDeserializer(), new ByteArrayDeserializer());
        TestOutputTopic<String, PodIntent> intents = output(Topics.POD_INTENTS, serdes, PodIntent.class);
        TestOutputTopic<String, PodGroup> podGroups = output(Topics.POD_GROUPS, serdes, PodGroup.class);
        world = new DriverWorld(JOB, T0, podEvents, decisions, intents, podGroups);
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

    @Test
    void eachInputsEntryAndStatusAreCommittedWithIt() {
        commands.pipeInput(KEY, LifecycleScript.submit("submit-" + JOB, JOB, LifecycleScript.tfJob(JOB), T0));
        assertThat(results.readValuesToList())
                .singleElement()
                .satisfies(r -> assertThat(r.getAccepted()).isTrue());
        assertCommitted("the submit");
        world.settle();
        assertCommitted("the pods created");
        int step = 0;
        for (ScriptStep s : LifecycleScript.steps(LifecycleScript.RUN_TO_COMPLETION)) {
            world.run(s);
            assertCommitted("step " + ++step);
        }
        assertThat(lastStatus.getStatus().getState().getPhase()).isEqualTo("Completed");
    }

    /** What the last commit committed: the store's entry in the changelog, its status on the status topic. */
    private void assertCommitted(String after) {
        for (KeyValue<String, byte[]> r : changelog.readKeyValuesToList()) {
            if (KEY.equals(r.key)) {
                lastChangelogged = r.value;
            }
        }
        for (KeyValue<String, JobStatusRecord> r : status.readKeyValuesToList()) {
            if (KEY.equals(r.key)) {
                lastStatus = r.value;
            }
        }
        byte[] stored = ((CommitHookStore) driver.getAllStateStores().get(JobStore.NAME)).get(KEY);
        assertThat(stored).as("after %s: the job is in the jobs store", after).isNotNull();
        assertThat(text(lastChangelogged))
                .as(
                        "after %s: the jobs store's changelog holds the store's entry, in the same commit"
                                + " (Kafka Streams no longer calls the commit hook before it commits?)",
                        after)
                .isEqualTo(text(stored));
        JobEntry entry = new JobStore.Codec().decode(stored);
        JobStatus held = entry.info().job().status();
        assertThat(lastStatus).as("after %s: a status was committed", after).isNotNull();
        assertThat(lastStatus.getStatus().getState().getPhase())
                .as("after %s: the status committed is the entry's", after)
                .isEqualTo(held.state().phase().name());
        assertThat(lastStatus.getStatus().getRunning())
                .as("after %s: running", after)
                .isEqualTo(nz(held.running()));
        assertThat(lastStatus.getStatus().getSucceeded())
                .as("after %s: succeeded", after)
                .isEqualTo(nz(held.succeeded()));
        assertThat(lastStatus.getStatus().getPending())
                .as("after %s: pending", after)
                .isEqualTo(nz(held.pending()));
    }

    private static String text(byte[] json) {
        return json == null ? null : new String(json, StandardCharsets.UTF_8);
    }

    private static int nz(Integer i) {
        return i == null ? 0 : i;
    }
}
