package io.lahar.cli;

import io.lahar.schema.Topics;
import java.util.Map;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * How {@code submit} and {@code watch} follow a topic the engine writes: its committed records only
 * (what a transaction has not committed is no answer yet), every partition assigned, no group and
 * no offsets committed, so a verb that follows a topic leaves nothing behind on the broker.
 */
final class CommittedRecords {

    private CommittedRecords() {}

    /** A consumer assigned every partition of {@code topic}, at no position yet: the caller seeks. */
    static <V> KafkaConsumer<String, V> follow(
            KafkaOptions.Resolved where, Topics.TopicSpec topic, Deserializer<V> values) {
        KafkaConsumer<String, V> consumer = where.clients()
                .consumer(
                        Map.of(
                                ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                                "read_committed",
                                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                                false),
                        new StringDeserializer(),
                        values);
        consumer.assign(IntStream.range(0, topic.partitions())
                .mapToObj(p -> new TopicPartition(topic.name(), p))
                .toList());
        return consumer;
    }
}
