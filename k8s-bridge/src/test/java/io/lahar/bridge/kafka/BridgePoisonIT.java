package io.lahar.bridge.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.lahar.bridge.TestIntents;
import io.lahar.bridge.mapping.SshKeyPair;
import io.lahar.bridge.reconcile.CommandResultReporter;
import io.lahar.bridge.reconcile.CronJobStatusWriter;
import io.lahar.bridge.reconcile.DecisionReconciler;
import io.lahar.bridge.reconcile.EngineDeletions;
import io.lahar.bridge.reconcile.FlowStatusWriter;
import io.lahar.bridge.reconcile.JobStatusWriter;
import io.lahar.bridge.reconcile.PodGroupReconciler;
import io.lahar.bridge.reconcile.PodIntentReconciler;
import io.lahar.bridge.reconcile.QueueStatusWriter;
import io.lahar.bridge.reconcile.Retry;
import io.lahar.schema.Bind;
import io.lahar.schema.CommandResult;
import io.lahar.schema.CronJobStatus;
import io.lahar.schema.CronJobStatusRecord;
import io.lahar.schema.DeadLetter;
import io.lahar.schema.JobFlowState;
import io.lahar.schema.JobFlowStatus;
import io.lahar.schema.JobFlowStatusRecord;
import io.lahar.schema.JobState;
import io.lahar.schema.JobStatus;
import io.lahar.schema.JobStatusRecord;
import io.lahar.schema.Node;
import io.lahar.schema.PodGroup;
import io.lahar.schema.PodGroupSpec;
import io.lahar.schema.PodGroupStatus;
import io.lahar.schema.QueueState;
import io.lahar.schema.QueueStatus;
import io.lahar.schema.SchedulerDecision;
import io.lahar.schema.Topics;
import io.lahar.schema.deadletter.Poison;
import io.lahar.schema.deadletter.Poison.Input;
import io.lahar.schema.serde.RegistrySerdes;
import io.lahar.testkit.LaharInfra;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every kind of poison on every topic the bridge reads is dead-lettered with its reason, and never
 * reaches a reconciler: the input loop's {@code handle} with the real registry, and a cluster that
 * cannot be reached — a record that got to a reconciler would have called it, and been put off
 * (LATER), as every valid record here is.
 */
class BridgePoisonIT {

    private static final RegistrySerdes SERDES =
            new RegistrySerdes(LaharInfra.shared().registryUrl());
    private static final java.time.Instant T0 = TestIntents.T0;

    private final List<SpecificRecord> sent = new ArrayList<>();
    private KubernetesClient client;
    private BridgeConsumer consumer;

    @BeforeEach
    void setUp() {
        client = new KubernetesClientBuilder()
                .withConfig(new ConfigBuilder()
                        .withMasterUrl("http://127.0.0.1:1")
                        .withRequestRetryBackoffLimit(0)
                        .build())
                .build();
        Retry retry = new Retry(1, Duration.ZERO, Duration.ZERO, d -> {});
        consumer = new BridgeConsumer(
                io.lahar.schema.KafkaClients.plaintext("127.0.0.1:1"),
                SERDES,
                "test",
                new PodIntentReconciler(client, retry, new EngineDeletions(), SshKeyPair::generate),
                new DecisionReconciler(client, retry),
                new PodGroupReconciler(client, retry),
                new JobStatusWriter(client, retry),
                new FlowStatusWriter(client, retry),
                new CronJobStatusWriter(client, retry),
                new QueueStatusWriter(client, retry),
                new CommandResultReporter(client, retry),
                (topic, key, value) -> {
                    assertThat(topic).isEqualTo(Topics.DEAD_LETTERS.name());
                    sent.add(value);
                },
                Optional.empty());
    }

    @AfterEach
    void tearDown() {
        consumer.close();
        client.close();
    }

    static List<Input> inputs() {
        return List.of(
                new Input(
                        Topics.POD_INTENTS,
                        "team/tf",
                        TestIntents.create("team", "tf", "w", 0, 1, TestIntents.template("sleep 1")),
                        "team/other"),
                new Input(
                        Topics.SCHEDULER_DECISIONS,
                        "team/tf",
                        SchedulerDecision.newBuilder()
                                .setNamespace("team")
                                .setJob("tf")
                                .setPodGroup("tf")
                                .setEpoch(1)
                                .setSession("1-1")
                                .setTime(T0)
                                .setDecision(Bind.newBuilder()
                                        .setPod("tf-w-0")
                                        .setNode("n-0")
                                        .setAction("allocate")
                                        .setJobVersion(1)
                                        .build())
                                .build(),
                        "team/other"),
                new Input(
                        Topics.POD_GROUPS,
                        "team/tf",
                        PodGroup.newBuilder()
                                .setNamespace("team")
                                .setName("tf")
                                .setJob("tf")
                                .setCreationTimestamp(T0)
                                .setSpec(PodGroupSpec.newBuilder()
                                        .setMinMember(1)
                                        .setQueue("default")
                                        .build())
                                .setStatus(PodGroupStatus.newBuilder()
                                        .setPhase("Pending")
                                        .build())
                                .setTime(T0)
                                .build(),
                        "team/other"),
                new Input(
                        Topics.JOB_STATUS,
                        "team/tf",
                        JobStatusRecord.newBuilder()
                                .setNamespace("team")
                                .setName("tf")
                                .setUid("u")
                                .setQueue("default")
                                .setManifest("{}")
                                .setTime(T0)
                                .setStatus(JobStatus.newBuilder()
                                        .setState(JobState.newBuilder()
                                                .setPhase("Running")
                                                .build())
                                        .setMinAvailable(1)
                                        .build())
                                .build(),
                        "team/other"),
                new Input(
                        Topics.COMMAND_RESULTS,
                        "team/tf",
                        CommandResult.newBuilder()
                                .setRequestId(io.lahar.bridge.mapping.CommandEvents.REQUEST_PREFIX + "u-1")
                                .setNamespace("team")
                                .setName("tf")
                                .setKind("SubmitJob")
                                .setAccepted(true)
                                .setSender("volcano-api")
                                .setTime(T0)
                                .build(),
                        "team/other"),
                new Input(
                        Topics.FLOW_STATUS,
                        "team/flow",
                        JobFlowStatusRecord.newBuilder()
                                .setNamespace("team")
                                .setName("flow")
                                .setUid("u")
                                .setManifest("{}")
                                .setTime(T0)
                                .setStatus(JobFlowStatus.newBuilder()
                                        .setState(new JobFlowState("Running"))
                                        .build())
                                .build(),
                        "team/other"),
                new Input(
                        Topics.CRONJOB_STATUS,
                        "team/cron",
                        CronJobStatusRecord.newBuilder()
                                .setNamespace("team")
                                .setName("cron")
                                .setUid("u")
                                .setManifest("{}")
                                .setTime(T0)
                                .setStatus(CronJobStatus.newBuilder().build())
                                .build(),
                        "team/other"),
                new Input(
                        Topics.QUEUE_STATUS,
                        "relia-q",
                        QueueStatus.newBuilder()
                                .setName("relia-q")
                                .setState(QueueState.Open)
                                .setTime(T0)
                                .build(),
                        "other-q"),
                new Input(
                        Topics.QUEUES,
                        "relia-q",
                        io.lahar.schema.Queue.newBuilder()
                                .setName("relia-q")
                                .setTime(T0)
                                .build(),
                        "other-q"),
                new Input(
                        Topics.JOB_TEMPLATES,
                        "team/tpl",
                        io.lahar.schema.JobTemplate.newBuilder()
                                .setNamespace("team")
                                .setName("tpl")
                                .setSpec("{}")
                                .setTime(T0)
                                .build(),
                        "team/other"));
    }

    static Stream<Arguments> cases() {
        return Poison.cases(inputs());
    }

    @ParameterizedTest(name = "{1} on {0}")
    @MethodSource("cases")
    void isDeadLetteredWithItsReasonAndNeverReconciled(Input input, Poison poison) {
        String key = poison.key(input);
        byte[] value = poison.value(
                input,
                SERDES,
                Node.newBuilder()
                        .setName(input.key())
                        .setAllocatable(Map.of())
                        .setTime(T0)
                        .build(),
                "poison");

        BridgeConsumer.Verdict verdict =
                consumer.handle(new ConsumerRecord<>(input.topic().name(), 2, 42L, key, value));

        assertThat(verdict.handled())
                .as("done, never put off by the unreachable cluster")
                .isEqualTo(BridgeConsumer.Handled.DONE);
        assertThat(sent).singleElement().isInstanceOfSatisfying(DeadLetter.class, letter -> {
            assertThat(letter.getTopic()).isEqualTo(input.topic().name());
            assertThat(letter.getPartition()).isEqualTo(2);
            assertThat(letter.getOffset()).isEqualTo(42L);
            assertThat(letter.getProcessor()).isEqualTo("k8s-bridge");
            assertThat(letter.getError()).contains(poison.reason(input));
        });
    }

    @ParameterizedTest(name = "a valid record on {0} reaches its reconciler")
    @MethodSource("inputs")
    void aValidRecordReachesItsReconciler(Input input) {
        BridgeConsumer.Verdict verdict = consumer.handle(new ConsumerRecord<>(
                input.topic().name(), 2, 42L, input.key(), encode(input.topic().name(), input.valid())));
        if (input.topic() == Topics.JOB_STATUS) {
            // Its CR write goes beside the lanes, tried again there; the record waits for it, offset held.
            assertThat(verdict.handled()).isEqualTo(BridgeConsumer.Handled.WAITING);
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> consumer.holding().isPresent());
        } else {
            assertThat(verdict.handled())
                    .as("the unreachable cluster puts it off")
                    .isEqualTo(BridgeConsumer.Handled.LATER);
        }
        assertThat(sent).isEmpty();
        assertThat(consumer.holding()).hasValueSatisfying(why -> assertThat(why).isNotBlank());
    }

    private static byte[] encode(String topic, SpecificRecord record) {
        return Poison.encode(SERDES, topic, record);
    }
}
