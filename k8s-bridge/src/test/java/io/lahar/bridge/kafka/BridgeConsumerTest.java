package io.lahar.bridge.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.lahar.bridge.mapping.SshKeyPair;
import io.lahar.bridge.reconcile.CommandResultReporter;
import io.lahar.bridge.reconcile.DecisionReconciler;
import io.lahar.bridge.reconcile.EngineDeletions;
import io.lahar.bridge.reconcile.FlowStatusWriter;
import io.lahar.bridge.reconcile.JobStatusWriter;
import io.lahar.bridge.reconcile.PodGroupReconciler;
import io.lahar.bridge.reconcile.PodIntentReconciler;
import io.lahar.bridge.reconcile.QueueStatusWriter;
import io.lahar.bridge.reconcile.Retry;
import io.lahar.schema.DeadLetter;
import io.lahar.schema.Topics;
import io.lahar.schema.serde.RegistrySerdes;
import java.net.ConnectException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The input loop's verdict per record, with nothing reachable: no broker, no registry, no cluster. */
class BridgeConsumerTest {

    private final List<SpecificRecord> dead = new ArrayList<>();
    private KubernetesClient client;
    private BridgeConsumer consumer;

    @BeforeEach
    void setUp() {
        client = new KubernetesClientBuilder()
                .withConfig(
                        new ConfigBuilder().withMasterUrl("http://127.0.0.1:1").build())
                .build();
        Retry retry = new Retry(1, Duration.ZERO, Duration.ZERO, d -> {});
        consumer = new BridgeConsumer(
                io.lahar.schema.KafkaClients.plaintext("127.0.0.1:1"),
                new RegistrySerdes("http://127.0.0.1:1/apis/registry/v3", Duration.ofSeconds(1)),
                "test",
                new PodIntentReconciler(client, retry, new EngineDeletions(), SshKeyPair::generate),
                new DecisionReconciler(client, retry),
                new PodGroupReconciler(client, retry),
                new JobStatusWriter(client, retry),
                new FlowStatusWriter(client, retry),
                new io.lahar.bridge.reconcile.CronJobStatusWriter(client, retry),
                new QueueStatusWriter(client, retry),
                new CommandResultReporter(client, retry),
                (topic, key, value) -> {
                    assertThat(topic).isEqualTo(Topics.DEAD_LETTERS.name());
                    dead.add(value);
                },
                Optional.of("team"));
    }

    @AfterEach
    void tearDown() {
        consumer.close();
        client.close();
    }

    private static ConsumerRecord<String, byte[]> record(String key, byte[] value) {
        return new ConsumerRecord<>(Topics.POD_INTENTS.name(), 3, 42L, key, value);
    }

    @Test
    void aCommitTheGroupRefusesWhileItRebalancesLeavesTheLoopRunningAndAnyOtherFailureDoesNot() {
        assertThatCode(() -> BridgeConsumer.tolerateRebalance(() -> {
                    throw new org.apache.kafka.clients.consumer.CommitFailedException();
                }))
                .doesNotThrowAnyException();
        assertThatCode(() -> BridgeConsumer.tolerateRebalance(() -> {
                    throw new org.apache.kafka.common.errors.RebalanceInProgressException("rebalancing");
                }))
                .doesNotThrowAnyException();
        assertThatThrownBy(() -> BridgeConsumer.tolerateRebalance(() -> {
                    throw new org.apache.kafka.common.errors.AuthorizationException("not allowed");
                }))
                .isInstanceOf(org.apache.kafka.common.errors.AuthorizationException.class);
    }

    @Test
    void aRecordThatIsNotAvroIsADeadLetterWithItsPlace() {
        assertThat(consumer.handle(record("team/job", new byte[] {9, 9, 9})).handled())
                .isEqualTo(BridgeConsumer.Handled.DONE);
        assertThat(dead).singleElement().isInstanceOfSatisfying(DeadLetter.class, d -> {
            assertThat(d.getTopic()).isEqualTo(Topics.POD_INTENTS.name());
            assertThat(d.getPartition()).isEqualTo(3);
            assertThat(d.getOffset()).isEqualTo(42L);
            assertThat(d.getProcessor()).isEqualTo("k8s-bridge");
            assertThat(d.getValue().remaining()).isEqualTo(3);
        });
    }

    @Test
    void aRecordWhoseSchemaCannotBeFetchedWaitsForTheRegistry() {
        byte[] wire = {0, 0, 0, 0, 1, 2, 3};
        assertThat(consumer.handle(record("team/job", wire)).handled()).isEqualTo(BridgeConsumer.Handled.LATER);
        assertThat(dead).isEmpty();
    }

    @Test
    void recordsOfOtherNamespacesAreSkippedUndecoded() {
        assertThat(consumer.handle(record("other/job", new byte[] {9, 9, 9})).handled())
                .isEqualTo(BridgeConsumer.Handled.DONE);
        assertThat(dead).isEmpty();
    }

    @Test
    void transientFailuresAreToldFromPermanentOnes() {
        assertThat(Transients.isTransient(new KubernetesClientException("down", 503, null)))
                .isTrue();
        assertThat(Transients.isTransient(new RuntimeException(new ConnectException("refused"))))
                .isTrue();
        assertThat(Transients.isTransient(new KubernetesClientException("invalid", 422, null)))
                .isFalse();
        assertThat(Transients.isTransient(new IllegalArgumentException("intent.template: not JSON")))
                .isFalse();
    }

    @Test
    void aPodsCreateBindEvictionAndDeleteShareOneLaneAndOtherPodsAndObjectsHaveTheirOwn() {
        var create = io.lahar.bridge.TestIntents.create(
                "team", "j", "w", 0, 1, io.lahar.bridge.TestIntents.template("true"));
        var delete = io.lahar.bridge.TestIntents.delete("team", "j", "j-w-0", 1);
        var bind = io.lahar.schema.SchedulerDecision.newBuilder()
                .setNamespace("team")
                .setJob("j")
                .setPodGroup("j")
                .setEpoch(1)
                .setTime(io.lahar.bridge.TestIntents.T0)
                .setDecision(io.lahar.schema.Bind.newBuilder()
                        .setPod("j-w-0")
                        .setNode("n1")
                        .setAction("allocate")
                        .setJobVersion(1)
                        .build())
                .build();
        var evict = io.lahar.schema.SchedulerDecision.newBuilder(bind)
                .setDecision(io.lahar.schema.Evict.newBuilder()
                        .setPod("j-w-0")
                        .setReason("preempted")
                        .setAction("preempt")
                        .build())
                .build();
        var otherPod = io.lahar.bridge.TestIntents.create(
                "team", "j", "w", 1, 1, io.lahar.bridge.TestIntents.template("true"));
        ConsumerRecord<String, byte[]> intents = record("team/j", null);
        ConsumerRecord<String, byte[]> decisions =
                new ConsumerRecord<>(Topics.SCHEDULER_DECISIONS.name(), 0, 1L, "team/j", null);
        ConsumerRecord<String, byte[]> groups = new ConsumerRecord<>(Topics.POD_GROUPS.name(), 0, 1L, "team/j", null);

        String lane = RecordLane.of(intents, create);
        assertThat(lane).isEqualTo("pod:team/j-w-0");
        assertThat(RecordLane.of(decisions, bind)).isEqualTo(lane);
        assertThat(RecordLane.of(decisions, evict)).isEqualTo(lane);
        assertThat(RecordLane.of(intents, delete)).isEqualTo(lane);
        assertThat(RecordLane.of(intents, otherPod)).isEqualTo("pod:team/j-w-1");
        assertThat(RecordLane.of(groups, null)).isEqualTo("lahar.pod-groups:team/j");
    }

    @Test
    void aPodsCreateWaitsForItsJobsPluginObjectsAndNothingElseWaits() {
        var create = io.lahar.bridge.TestIntents.create(
                "team", "j", "w", 0, 1, io.lahar.bridge.TestIntents.template("true"));
        var delete = io.lahar.bridge.TestIntents.delete("team", "j", "j-w-0", 1);
        var claim = io.lahar.schema.PodIntent.newBuilder(delete)
                .setIntent(io.lahar.schema.EnsurePersistentVolumeClaim.newBuilder()
                        .setName("j-volume-0")
                        .setLabels(java.util.Map.of())
                        .setSpec("{}")
                        .build())
                .build();
        ConsumerRecord<String, byte[]> intents = record("team/j", null);

        assertThat(RecordLane.of(intents, claim)).isEqualTo("objects:team/j");
        assertThat(RecordLane.after(intents, create)).isEqualTo(RecordLane.of(intents, claim));
        assertThat(RecordLane.after(intents, delete)).isNull();
        assertThat(RecordLane.after(intents, claim)).isNull();
    }
}
