package io.lahar.streams.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.schema.CommandResult;
import io.lahar.schema.CronJobCommand;
import io.lahar.schema.DeadLetter;
import io.lahar.schema.FlowCommand;
import io.lahar.schema.FlowKind;
import io.lahar.schema.JobCommand;
import io.lahar.schema.JobFlowState;
import io.lahar.schema.JobFlowStatus;
import io.lahar.schema.JobFlowStatusRecord;
import io.lahar.schema.JobTemplate;
import io.lahar.schema.Node;
import io.lahar.schema.PodEvent;
import io.lahar.schema.Queue;
import io.lahar.schema.SchedulerDecision;
import io.lahar.schema.SubmitCronJob;
import io.lahar.schema.SubmitFlowObject;
import io.lahar.schema.SubmitJob;
import io.lahar.schema.Tick;
import io.lahar.schema.Topics;
import io.lahar.schema.deadletter.Poison;
import io.lahar.schema.deadletter.Poison.Input;
import io.lahar.schema.serde.RegistrySerdes;
import io.lahar.streams.LaharTopology;
import io.lahar.streams.cron.CronTopology;
import io.lahar.streams.flow.FlowStores;
import io.lahar.streams.job.JobStore;
import io.lahar.streams.queue.QueueLookup;
import io.lahar.testkit.LaharInfra;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every kind of poison on every topic the streams-app reads — the job inputs, the flow engine's,
 * the CronJob engine's, the results the flows watch, and the three global stores — is dead-lettered with its reason and
 * changes nothing: the topology under TopologyTestDriver, the registry real (unknown ids and other
 * records' schemas are the registry's).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PoisonInputsIT {

    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    /** The flow engine reads only the results whose bytes name a flow as their sender: the poison does. */
    private static final String FLOW = "jobflow:default/f";

    /** The global store over each global topic. */
    private static final Map<Topics.TopicSpec, String> GLOBAL_STORES = Map.of(
            Topics.QUEUES,
            QueueLookup.STORE,
            Topics.JOB_TEMPLATES,
            FlowStores.GLOBAL_TEMPLATES,
            Topics.FLOW_STATUS,
            FlowStores.GLOBAL_FLOW_STATUS);

    private final List<DeadLetter> globalLetters = new CopyOnWriteArrayList<>();
    private RegistrySerdes serdes;
    private TopologyTestDriver driver;
    private TestOutputTopic<String, DeadLetter> letters;
    private final List<TestOutputTopic<String, byte[]>> otherOutputs = new ArrayList<>();

    @BeforeAll
    void start(@TempDir Path stateDirs) throws Exception {
        serdes = new RegistrySerdes(LaharInfra.shared().registryUrl());
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "poison-inputs-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(
                StreamsConfig.STATE_DIR_CONFIG,
                Files.createTempDirectory(stateDirs, "poison-inputs").toString());
        GlobalDeadLetters global = new GlobalDeadLetters() {
            @Override
            public void send(
                    org.apache.kafka.streams.processor.api.ProcessorContext<?, ?> context,
                    byte[] key,
                    DeadLetter letter) {
                globalLetters.add(letter);
            }

            @Override
            public void close() {}
        };
        driver = new TopologyTestDriver(LaharTopology.build(new Guards(serdes, global)), props);
        letters = driver.createOutputTopic(
                Topics.DEAD_LETTERS.name(),
                new StringDeserializer(),
                serdes.value(DeadLetter.class).deserializer());
        for (Topics.TopicSpec out : List.of(
                Topics.JOB_STATUS,
                Topics.JOB_TRANSITIONS,
                Topics.POD_INTENTS,
                Topics.POD_GROUPS,
                Topics.JOB_COMMANDS,
                Topics.FLOW_STATUS,
                Topics.JOB_TEMPLATES,
                Topics.CRONJOB_STATUS)) {
            otherOutputs.add(driver.createOutputTopic(
                    out.name(),
                    new StringDeserializer(),
                    new org.apache.kafka.common.serialization.ByteArrayDeserializer()));
        }
    }

    @AfterAll
    void stop() {
        driver.close();
    }

    static List<Input> inputs() {
        return List.of(
                new Input(
                        Topics.JOB_COMMANDS,
                        "default/j",
                        JobCommand.newBuilder()
                                .setRequestId("r")
                                .setSender(FLOW)
                                .setNamespace("default")
                                .setName("j")
                                .setTime(T0)
                                .setCommand(new SubmitJob("{}"))
                                .build(),
                        "default/k"),
                new Input(
                        Topics.POD_EVENTS,
                        "default/j",
                        PodEvent.newBuilder()
                                .setNamespace("default")
                                .setJob("j")
                                .setPod("j-w-0")
                                .setUid(FLOW)
                                .setTask("w")
                                .setIndex(0)
                                .setJobVersion(0)
                                .setPhase("Running")
                                .setTime(T0)
                                .build(),
                        "default/k"),
                new Input(
                        Topics.SCHEDULER_DECISIONS,
                        "default/j",
                        SchedulerDecision.newBuilder()
                                .setNamespace("default")
                                .setJob("j")
                                .setPodGroup("j")
                                .setEpoch(1)
                                .setSession(FLOW)
                                .setTime(T0)
                                .setDecision(io.lahar.schema.PodGroupStatus.newBuilder()
                                        .setPhase("Inqueue")
                                        .build())
                                .build(),
                        "default/k"),
                new Input(Topics.CLOCK, "0", new Tick(T0), "3"),
                new Input(
                        Topics.FLOW_COMMANDS,
                        "default/f",
                        FlowCommand.newBuilder()
                                .setRequestId("r")
                                .setSender(FLOW)
                                .setNamespace("default")
                                .setName("f")
                                .setTime(T0)
                                .setKind(FlowKind.JobFlow)
                                .setCommand(new SubmitFlowObject("{}"))
                                .build(),
                        "default/g"),
                new Input(Topics.FLOW_CLOCK, "0", new Tick(T0), "3"),
                new Input(
                        Topics.CRONJOB_COMMANDS,
                        "default/c",
                        CronJobCommand.newBuilder()
                                .setRequestId("r")
                                .setSender(FLOW)
                                .setNamespace("default")
                                .setName("c")
                                .setTime(T0)
                                .setCommand(new SubmitCronJob("{}"))
                                .build(),
                        "default/d"),
                new Input(Topics.CRON_CLOCK, "0", new Tick(T0), "3"),
                new Input(
                        Topics.COMMAND_RESULTS,
                        "default/j",
                        CommandResult.newBuilder()
                                .setRequestId("r")
                                .setNamespace("default")
                                .setName("j")
                                .setKind("SubmitJob")
                                .setAccepted(false)
                                .setSender(FLOW)
                                .setTime(T0)
                                .build(),
                        "default/k"),
                // A CronJob's: its own re-keying reads it.
                new Input(
                        Topics.COMMAND_RESULTS,
                        "default/j",
                        CommandResult.newBuilder()
                                .setRequestId("r")
                                .setNamespace("default")
                                .setName("j")
                                .setKind("SubmitJob")
                                .setAccepted(false)
                                .setSender("cronjob:default/c")
                                .setTime(T0)
                                .build(),
                        "default/k"),
                new Input(
                        Topics.QUEUES,
                        "relia-q",
                        Queue.newBuilder()
                                .setName("relia-q")
                                .setParent(FLOW)
                                .setTime(T0)
                                .build(),
                        "other-q"),
                new Input(
                        Topics.JOB_TEMPLATES,
                        "default/t",
                        JobTemplate.newBuilder()
                                .setNamespace("default")
                                .setName("t")
                                .setUid(FLOW)
                                .setSpec("{}")
                                .setTime(T0)
                                .build(),
                        "default/u"),
                new Input(
                        Topics.FLOW_STATUS,
                        "default/f",
                        JobFlowStatusRecord.newBuilder()
                                .setNamespace("default")
                                .setName("f")
                                .setUid(FLOW)
                                .setManifest("{}")
                                .setTime(T0)
                                .setStatus(JobFlowStatus.newBuilder()
                                        .setState(new JobFlowState("Running"))
                                        .build())
                                .build(),
                        "default/g"));
    }

    static Stream<org.junit.jupiter.params.provider.Arguments> cases() {
        return Poison.cases(inputs());
    }

    @ParameterizedTest(name = "{1} on {0}")
    @MethodSource("cases")
    void isDeadLetteredWithItsReasonAndChangesNothing(Input input, Poison poison) {
        TestInputTopic<String, byte[]> topic =
                driver.createInputTopic(input.topic().name(), new StringSerializer(), new ByteArraySerializer());
        String key = poison.key(input);
        byte[] value = poison.value(
                input,
                serdes,
                Node.newBuilder()
                        .setName(FLOW)
                        .setAllocatable(Map.of())
                        .setTime(T0)
                        .build(),
                FLOW);
        globalLetters.clear();
        topic.pipeInput(key, value, T0.toEpochMilli());

        List<DeadLetter> sent = new ArrayList<>(letters.readValuesToList());
        sent.addAll(globalLetters);
        assertThat(sent).as("one dead letter").singleElement().satisfies(letter -> {
            assertThat(letter.getTopic()).isEqualTo(input.topic().name());
            assertThat(letter.getProcessor()).isEqualTo("streams-app");
            assertThat(letter.getValue() == null ? null : bytes(letter.getValue()))
                    .isEqualTo(value);
            assertThat(letter.getError()).contains(poison.reason(input));
        });
        assertThat(otherOutputs)
                .as("nothing else written")
                .allSatisfy(out -> assertThat(out.readKeyValuesToList()).isEmpty());
        assertUnchanged(input);
    }

    @Test
    void aTombstoneOnACompactedTopicDeletesTheKeyAndIsNoDeadLetter() {
        TestInputTopic<String, byte[]> queues =
                driver.createInputTopic(Topics.QUEUES.name(), new StringSerializer(), new ByteArraySerializer());
        queues.pipeInput(
                "kept-q",
                Poison.encode(
                        serdes,
                        Topics.QUEUES.name(),
                        Queue.newBuilder().setName("kept-q").setTime(T0).build()));
        KeyValueStore<String, byte[]> store = driver.getKeyValueStore(QueueLookup.STORE);
        assertThat(store.get("kept-q")).isNotNull();
        queues.pipeInput("kept-q", (byte[]) null);
        assertThat(store.get("kept-q")).isNull();
        assertThat(letters.readValuesToList()).isEmpty();
        assertThat(globalLetters).isEmpty();
    }

    /** The poison left no trace: no job, flow or template entry, and the global stores hold nothing under its keys. */
    @SuppressWarnings("unchecked")
    private void assertUnchanged(Input input) {
        for (String local : List.of(JobStore.NAME, FlowStores.FLOWS, FlowStores.TEMPLATES, CronTopology.STORE)) {
            ReadOnlyKeyValueStore<String, Object> kv = (ReadOnlyKeyValueStore<String, Object>)
                    driver.getAllStateStores().get(local);
            try (var all = kv.all()) {
                assertThat(all.hasNext()).as("store %s is empty", local).isFalse();
            }
        }
        String store = GLOBAL_STORES.get(input.topic());
        if (store != null) {
            KeyValueStore<String, byte[]> global = driver.getKeyValueStore(store);
            assertThat(global.get(input.key()))
                    .as("%s holds nothing under %s", store, input.key())
                    .isNull();
            assertThat(global.get(input.otherKey())).isNull();
            assertThat(global.get("")).isNull();
        }
    }

    private static byte[] bytes(ByteBuffer buffer) {
        byte[] out = new byte[buffer.remaining()];
        buffer.duplicate().get(out);
        return out;
    }
}
