package io.lahar.streams.engine;

import io.lahar.schema.CommandResult;
import io.lahar.schema.DeadLetter;
import io.lahar.schema.JobCommand;
import io.lahar.schema.Topics;
import io.lahar.schema.serde.RegistrySerdes;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyDescription;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Repartitioned;
import org.apache.kafka.streams.processor.api.ProcessorSupplier;
import org.apache.kafka.streams.state.Stores;

/**
 * The wiring the JobFlow and CronJob engines have in common. Each is one node keyed by its owner
 * (flow or CronJob) that reads its commands, the status and refusals of the jobs it made (through
 * repartitions co-partitioned with it) and its clock, keeps its entries in persistent stores, and
 * writes command results, job commands and dead letters. Built in one place so that the two
 * engines cannot drift apart in how they are partitioned and where they write.
 */
public final class EngineTopology {

    private EngineTopology() {}

    /** A repartition of owner-keyed bytes onto the jobs' partition count, so it is co-partitioned with the engine. */
    public static KStream<String, byte[]> repartitionByOwner(KStream<String, byte[]> stream, String repartition) {
        return stream.repartition(Repartitioned.<String, byte[]>as(repartition)
                .withKeySerde(Serdes.String())
                .withValueSerde(Serdes.ByteArray())
                .withNumberOfPartitions(Topics.JOB_PARTITIONS));
    }

    /**
     * The engine's node: its commands' source, its two repartitions (the jobs' status and their
     * refusals, which {@link #repartitionByOwner} must have declared) and its clock's source.
     */
    public static void addEngine(
            Topology topology,
            String engine,
            ProcessorSupplier<Object, byte[], Object, Object> processor,
            String commandsSource,
            String statusRepartition,
            String rejectionsRepartition,
            String clockSource) {
        topology.addProcessor(
                engine,
                processor,
                commandsSource,
                repartitionSource(topology, statusRepartition),
                repartitionSource(topology, rejectionsRepartition),
                clockSource);
    }

    /** Persistent key-value stores of the engine: string keys, the values as bytes the engine codes itself. */
    public static void addStores(Topology topology, String engine, String... stores) {
        for (String store : stores) {
            topology.addStateStore(
                    Stores.keyValueStoreBuilder(
                            Stores.persistentKeyValueStore(store), Serdes.String(), Serdes.ByteArray()),
                    engine);
        }
    }

    /** The sinks every engine writes to: the answers to its commands, and the commands of its jobs. */
    public static void addJobSinks(
            Topology topology, RegistrySerdes serdes, String engine, String resultsSink, String jobCommandsSink) {
        topology.addSink(
                resultsSink,
                Topics.COMMAND_RESULTS.name(),
                new StringSerializer(),
                serdes.value(CommandResult.class).serializer(),
                engine);
        topology.addSink(
                jobCommandsSink,
                Topics.JOB_COMMANDS.name(),
                new StringSerializer(),
                serdes.value(JobCommand.class).serializer(),
                engine);
    }

    /** The dead-letter sink of a guarded node, where its {@code GuardedProcessor} sends what it cannot process. */
    public static void addDeadLetters(Topology topology, RegistrySerdes serdes, String sink, String parent) {
        topology.addSink(
                sink,
                Topics.DEAD_LETTERS.name(),
                new ByteArraySerializer(),
                serdes.value(DeadLetter.class).serializer(),
                parent);
    }

    /** The DSL names the repartition's source node itself; find it by its topic. */
    private static String repartitionSource(Topology topology, String repartition) {
        for (TopologyDescription.Subtopology sub : topology.describe().subtopologies()) {
            for (TopologyDescription.Node node : sub.nodes()) {
                if (node instanceof TopologyDescription.Source s
                        && s.topicSet() != null
                        && s.topicSet().stream().anyMatch(t -> t.endsWith(repartition + "-repartition"))) {
                    return s.name();
                }
            }
        }
        throw new IllegalStateException(
                "the topology has no " + repartition + " repartition: call addRepartitions first");
    }

    /** Fails when {@code next} does not follow {@code node}: {@code node} forwards to it by name. */
    public static void requireNode(Topology topology, String node, String next) {
        for (TopologyDescription.Subtopology sub : topology.describe().subtopologies()) {
            for (TopologyDescription.Node n : sub.nodes()) {
                if (n.name().equals(node)
                        && n.successors().stream().anyMatch(s -> s.name().equals(next))) {
                    return;
                }
            }
        }
        throw new IllegalStateException("the topology has no node " + next + " after " + node
                + ": Kafka Streams named the repartition's first node otherwise");
    }
}
