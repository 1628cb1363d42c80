package io.lahar.scheduler.loop;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.scheduling.api.Snapshot;
import io.lahar.scheduler.Records;
import io.lahar.scheduler.cache.SchedulerCache;
import io.lahar.schema.DeadLetter;
import io.lahar.schema.PodGroupStatus;
import io.lahar.schema.PriorityClass;
import io.lahar.schema.QueueState;
import io.lahar.schema.QueueStatus;
import io.lahar.schema.SchedulerDecision;
import io.lahar.schema.Topics;
import io.lahar.schema.WorkloadPod;
import io.lahar.schema.deadletter.Poison;
import io.lahar.schema.deadletter.Poison.Input;
import io.lahar.schema.serde.RegistrySerdes;
import io.lahar.testkit.LaharInfra;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every kind of poison on every topic the scheduler reads is dead-lettered with its reason, in the
 * loop's transaction, and leaves the cache as it was: {@link SchedulerInputs} with the real
 * registry (unknown ids and other records' schemas are the registry's) and a real cache.
 */
class SchedulerPoisonIT {

    private static final RegistrySerdes SERDES =
            new RegistrySerdes(LaharInfra.shared().registryUrl());

    static List<Input> inputs() {
        return List.of(
                new Input(Topics.NODES, "b", Records.node("b", "8", "32Gi", Map.of(), List.of()), "a"),
                new Input(Topics.QUEUES, "relia-q", Records.queue("relia-q", 1), "other-q"),
                new Input(
                        Topics.POD_GROUPS,
                        "team/tf",
                        Records.podGroup("team", "tf", "default", 1, "Pending", 0),
                        "team/other"),
                new Input(
                        Topics.POD_INTENTS,
                        "team/tf",
                        Records.intent(
                                "team",
                                "tf",
                                Records.createPod("tf", "w", 0, "volcano", "1").build()),
                        "team/other"),
                new Input(
                        Topics.POD_EVENTS,
                        "team/tf",
                        Records.podEvent("team", "tf", "tf-w-0", "Running", "b", false),
                        "team/other"),
                new Input(
                        Topics.SCHEDULER_DECISIONS,
                        "team/tf",
                        SchedulerDecision.newBuilder()
                                .setNamespace("team")
                                .setJob("tf")
                                .setPodGroup("tf-pg")
                                .setEpoch(7)
                                .setSession("7-1")
                                .setTime(Records.T0)
                                .setDecision(PodGroupStatus.newBuilder()
                                        .setPhase("Inqueue")
                                        .setConditions(List.of())
                                        .build())
                                .build(),
                        "team/other"),
                new Input(
                        Topics.WORKLOAD_PODS,
                        "team/spark-driver",
                        WorkloadPod.newBuilder()
                                .setNamespace("team")
                                .setName("spark-driver")
                                .setSpec(Records.createPod("spark", "driver", 0, "volcano", "1")
                                        .setPod("spark-driver")
                                        .setPodGroup("spark")
                                        .build())
                                .setPhase("Pending")
                                .setTime(Records.T0)
                                .build(),
                        "team/other"),
                new Input(
                        Topics.PRIORITY_CLASSES,
                        "urgent",
                        PriorityClass.newBuilder()
                                .setName("urgent")
                                .setValue(1000)
                                .setTime(Records.T0)
                                .build(),
                        "other-class"),
                new Input(
                        Topics.QUEUE_STATUS,
                        "relia-q",
                        QueueStatus.newBuilder()
                                .setName("relia-q")
                                .setState(QueueState.Open)
                                .setTime(Records.T0)
                                .build(),
                        "other-q"));
    }

    static Stream<Arguments> cases() {
        return Poison.cases(inputs());
    }

    @ParameterizedTest(name = "{1} on {0}")
    @MethodSource("cases")
    void isDeadLetteredWithItsReasonAndChangesNothing(Input input, Poison poison) {
        SchedulerCache cache = new SchedulerCache(Set.of("volcano"));
        SchedulerInputs inputs = new SchedulerInputs(SERDES);
        String key = poison.key(input);
        byte[] value = poison.value(
                input,
                SERDES,
                input.topic() == Topics.NODES
                        ? Records.queue("b", 1)
                        : Records.node(input.key(), "8", "32Gi", Map.of(), List.of()),
                "poison");

        SchedulerInputs.Fold fold = inputs.fold(
                List.of(new ConsumerRecord<>(input.topic().name(), 0, 42L, key, value)),
                (topic, k, v) -> apply(cache, topic, k, v));

        assertThat(fold.outage()).isNull();
        assertThat(fold.changed()).isFalse();
        assertThat(fold.deadLetters()).singleElement().satisfies(sent -> {
            assertThat(sent.topic()).isEqualTo(Topics.DEAD_LETTERS.name());
            DeadLetter letter = letter(sent);
            assertThat(letter.getTopic()).isEqualTo(input.topic().name());
            assertThat(letter.getOffset()).isEqualTo(42L);
            assertThat(letter.getProcessor()).isEqualTo("scheduler-service");
            assertThat(letter.getError()).contains(poison.reason(input));
        });
        Snapshot snapshot = cache.snapshot();
        assertThat(snapshot.nodes()).as("no phantom node").isEmpty();
        assertThat(snapshot.queues()).isEmpty();
        assertThat(snapshot.jobs()).isEmpty();
        assertThat(cache.maxEpoch()).isZero();
    }

    @Test
    void validRecordsChangeTheCacheAndATombstoneOnACompactedTopicDeletes() {
        SchedulerCache cache = new SchedulerCache(Set.of("volcano"));
        SchedulerInputs inputs = new SchedulerInputs(SERDES);
        SchedulerInputs.Fold fold = inputs.fold(
                List.of(
                        new ConsumerRecord<>(
                                Topics.NODES.name(),
                                0,
                                1L,
                                "b",
                                encode(Topics.NODES.name(), inputs().getFirst().valid())),
                        new ConsumerRecord<>(
                                Topics.QUEUES.name(),
                                0,
                                1L,
                                "relia-q",
                                encode(Topics.QUEUES.name(), Records.queue("relia-q", 1))),
                        new ConsumerRecord<>(Topics.QUEUES.name(), 0, 2L, "relia-q", null)),
                (topic, k, v) -> apply(cache, topic, k, v));
        assertThat(fold.deadLetters()).isEmpty();
        assertThat(fold.changed()).isTrue();
        assertThat(cache.snapshot().nodes()).extracting(n -> n.name()).containsExactly("b");
        assertThat(cache.snapshot().queues()).isEmpty();
    }

    @Test
    void poisonBeforeTheCommittedOffsetsWasDeadLetteredByThePredecessor() {
        SchedulerInputs inputs = new SchedulerInputs(SERDES);
        inputs.deadLetteredBefore(Map.of(new TopicPartition(Topics.POD_INTENTS.name(), 0), 43L));
        SchedulerInputs.Fold fold = inputs.fold(
                List.of(
                        new ConsumerRecord<>(Topics.POD_INTENTS.name(), 0, 42L, "team/tf", (byte[]) null),
                        new ConsumerRecord<>(Topics.POD_INTENTS.name(), 0, 43L, "team/tf", (byte[]) null)),
                (topic, k, v) -> true);
        assertThat(fold.deadLetters()).extracting(r -> letter(r).getOffset()).containsExactly(43L);
    }

    @Test
    void aRecordThatNeedsARegistryThatDoesNotAnswerIsHeldWithTheRestNeverDeadLettered() {
        SchedulerInputs inputs =
                new SchedulerInputs(new RegistrySerdes("http://127.0.0.1:1/apis/registry/v3", Duration.ofSeconds(1)));
        byte[] needsTheRegistry = encode(Topics.QUEUES.name(), Records.queue("relia-q", 1));
        SchedulerInputs.Fold fold = inputs.fold(
                List.of(
                        new ConsumerRecord<>(Topics.QUEUES.name(), 0, 5L, "relia-q", needsTheRegistry),
                        new ConsumerRecord<>(
                                Topics.QUEUES.name(), 0, 6L, "", "not avro".getBytes(StandardCharsets.UTF_8)),
                        new ConsumerRecord<>(Topics.NODES.name(), 0, 9L, "b", needsTheRegistry)),
                (topic, k, v) -> true);
        assertThat(fold.outage()).contains("127.0.0.1:1");
        assertThat(fold.deadLetters())
                .as("nothing judged while the registry is away")
                .isEmpty();
        assertThat(fold.held())
                .containsExactly(
                        Map.entry(new TopicPartition(Topics.QUEUES.name(), 0), 5L),
                        Map.entry(new TopicPartition(Topics.NODES.name(), 0), 9L));
    }

    /** As the loop applies them: the decisions read back to the cache's own method, queue statuses to none. */
    private static boolean apply(SchedulerCache cache, String topic, String key, SpecificRecord value) {
        if (topic.equals(Topics.SCHEDULER_DECISIONS.name())) {
            cache.onDecision(key, (SchedulerDecision) value);
            return false;
        }
        if (topic.equals(Topics.QUEUE_STATUS.name())) {
            return false;
        }
        cache.onInput(topic, key, value);
        return true;
    }

    private static byte[] encode(String topic, SpecificRecord record) {
        return Poison.encode(SERDES, topic, record);
    }

    private static DeadLetter letter(ProducerRecord<String, byte[]> sent) {
        return SERDES.value(DeadLetter.class).deserializer().deserialize(Topics.DEAD_LETTERS.name(), sent.value());
    }
}
