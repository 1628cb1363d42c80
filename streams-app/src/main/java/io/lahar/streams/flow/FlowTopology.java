package io.lahar.streams.flow;

import io.lahar.streams.kafka.GlobalStoreUpdater;
import io.lahar.schema.CommandResult;
import io.lahar.schema.DeadLetter;
import io.lahar.schema.FlowCommand;
import io.lahar.schema.JobCommand;
import io.lahar.schema.JobFlowStatusRecord;
import io.lahar.schema.JobStatusRecord;
import io.lahar.schema.JobTemplate;
import io.lahar.schema.Tick;
import io.lahar.schema.Topics;
import io.lahar.schema.serde.RegistrySerdes;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyDescription;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Repartitioned;
import org.apache.kafka.streams.state.Stores;

/**
 * The JobFlow part of the streams-app topology.
 *
 * <pre>
 * lahar.job-status ─▶ flow-job-status-rekey ─▶ (repartition: lahar-streams-flow-job-status-repartition, by flow key)─┐
 * lahar.command-results ─▶ flow-job-rejection-rekey (rejected SubmitJob of a flow's job) ─▶
 *    (repartition: lahar-streams-flow-job-rejections-repartition, by flow key) ────────────────────────────────────┤
 * lahar.flow-commands ─────────────────────────────────────────────────────────────────────────────────────────────┤
 * lahar.clock (the job lifecycle's source) ────────────────────────────────────────────────────────────────────────┴▶ flow-engine
 *    stores: flows, job-templates, flow-timers; global: job-templates-global (lahar.job-templates),
 *    flow-status-global (lahar.flow-status)
 * flow-engine ─▶ lahar.command-results, lahar.job-commands (SubmitJob/DeleteJob of the flows' jobs),
 *                lahar.flow-status (compacted; tombstone on delete), lahar.job-templates (compacted;
 *                tombstone on delete), lahar.dead-letters
 * </pre>
 * The re-keying needs a Kafka Streams repartition (internal) topic, which only the DSL declares,
 * so that step is built with a {@link StreamsBuilder} and the rest added to the resulting
 * topology with the Processor API.
 */
public final class FlowTopology {

    /** The repartition's name: its internal topic is {@code <application.id>-flow-job-status-repartition}. */
    public static final String REPARTITION = "flow-job-status";
    /** The repartition of job admission's refusals of the flows' jobs: {@code <application.id>-flow-job-rejections-repartition}. */
    public static final String REJECTIONS = "flow-job-rejections";
    public static final String ENGINE = "flow-engine";
    static final String COMMANDS_SOURCE = "flow-commands-source";

    private FlowTopology() {
    }

    /**
     * The DSL steps: job status, and job admission's refusals of the flows' jobs, re-keyed by flow
     * through repartition topics co-partitioned with the flows.
     */
    public static void addRekey(StreamsBuilder builder, RegistrySerdes serdes) {
        var statusDecoder = serdes.value(JobStatusRecord.class).deserializer();
        builder.stream(Topics.JOB_STATUS.name(), Consumed.with(Serdes.String(), Serdes.ByteArray()).withName("flow-job-status-source"))
                .process(() -> new FlowJobStatusRekey(statusDecoder), Named.as("flow-job-status-rekey"))
                .repartition(Repartitioned.<String, byte[]>as(REPARTITION)
                        .withKeySerde(Serdes.String()).withValueSerde(Serdes.ByteArray())
                        .withNumberOfPartitions(Topics.JOB_PARTITIONS));
        var resultDecoder = serdes.value(CommandResult.class).deserializer();
        builder.stream(Topics.COMMAND_RESULTS.name(), Consumed.with(Serdes.String(), Serdes.ByteArray()).withName("flow-job-results-source"))
                .process(() -> new FlowJobRejectionRekey(resultDecoder), Named.as("flow-job-rejection-rekey"))
                .repartition(Repartitioned.<String, byte[]>as(REJECTIONS)
                        .withKeySerde(Serdes.String()).withValueSerde(Serdes.ByteArray())
                        .withNumberOfPartitions(Topics.JOB_PARTITIONS));
    }

    /**
     * The engine, its stores and sinks, added to {@code topology} (which must hold the step of
     * {@link #addRekey}).
     *
     * @param clockSource the source node that reads {@code lahar.clock}
     * @param tickBudget  at most this many flows are woken by one tick per partition
     */
    public static void addTo(Topology topology, RegistrySerdes serdes, String clockSource, int tickBudget) {
        var templateSerde = serdes.value(JobTemplate.class);
        var flowStatusSerde = serdes.value(JobFlowStatusRecord.class);
        topology.addGlobalStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(FlowStores.GLOBAL_TEMPLATES),
                                Serdes.String(), Serdes.ByteArray()).withLoggingDisabled(),
                "job-templates-global-source", new StringDeserializer(), new ByteArrayDeserializer(), Topics.JOB_TEMPLATES.name(),
                "job-templates-global-updater", () -> new GlobalStoreUpdater(FlowStores.GLOBAL_TEMPLATES, templateSerde.deserializer()));
        topology.addGlobalStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(FlowStores.GLOBAL_FLOW_STATUS),
                                Serdes.String(), Serdes.ByteArray()).withLoggingDisabled(),
                "flow-status-global-source", new StringDeserializer(), new ByteArrayDeserializer(), Topics.FLOW_STATUS.name(),
                "flow-status-global-updater", () -> new GlobalStoreUpdater(FlowStores.GLOBAL_FLOW_STATUS, flowStatusSerde.deserializer()));

        topology.addSource(COMMANDS_SOURCE, new ByteArrayDeserializer(), new ByteArrayDeserializer(), Topics.FLOW_COMMANDS.name());
        var decoders = new FlowEngineProcessor.Decoders(serdes.value(FlowCommand.class).deserializer(),
                serdes.value(JobStatusRecord.class).deserializer(), serdes.value(Tick.class).deserializer(),
                templateSerde.deserializer(), flowStatusSerde.deserializer(), serdes.value(CommandResult.class).deserializer());
        topology.addProcessor(ENGINE, () -> new FlowEngineProcessor(decoders, tickBudget),
                COMMANDS_SOURCE, repartitionSource(topology, REPARTITION), repartitionSource(topology, REJECTIONS), clockSource);
        topology.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(FlowStores.FLOWS),
                Serdes.String(), Serdes.ByteArray()), ENGINE);
        topology.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(FlowStores.TEMPLATES),
                Serdes.String(), Serdes.ByteArray()), ENGINE);
        topology.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(FlowStores.TIMERS),
                Serdes.String(), Serdes.ByteArray()), ENGINE);
        // The global stores need no connection: every processor may read them.

        topology.addSink(FlowSinks.RESULTS, Topics.COMMAND_RESULTS.name(), new StringSerializer(),
                serdes.value(CommandResult.class).serializer(), ENGINE);
        topology.addSink(FlowSinks.JOB_COMMANDS, Topics.JOB_COMMANDS.name(), new StringSerializer(),
                serdes.value(JobCommand.class).serializer(), ENGINE);
        topology.addSink(FlowSinks.FLOW_STATUS, Topics.FLOW_STATUS.name(), new StringSerializer(),
                flowStatusSerde.serializer(), ENGINE);
        topology.addSink(FlowSinks.TEMPLATES, Topics.JOB_TEMPLATES.name(), new StringSerializer(),
                templateSerde.serializer(), ENGINE);
        topology.addSink(FlowSinks.DEAD_LETTERS, Topics.DEAD_LETTERS.name(), new ByteArraySerializer(),
                serdes.value(DeadLetter.class).serializer(), ENGINE);
    }

    /** The DSL names the repartition's source node itself; find it by its topic. */
    private static String repartitionSource(Topology topology, String repartition) {
        for (TopologyDescription.Subtopology sub : topology.describe().subtopologies()) {
            for (TopologyDescription.Node node : sub.nodes()) {
                if (node instanceof TopologyDescription.Source s && s.topicSet() != null
                        && s.topicSet().stream().anyMatch(t -> t.endsWith(repartition + "-repartition"))) {
                    return s.name();
                }
            }
        }
        throw new IllegalStateException("the topology has no " + repartition + " repartition: call addRekey first");
    }
}
