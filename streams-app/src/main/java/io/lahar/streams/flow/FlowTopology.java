package io.lahar.streams.flow;

import io.lahar.core.admission.AdmissionLimits;
import io.lahar.schema.CommandResult;
import io.lahar.schema.FlowCommand;
import io.lahar.schema.JobFlowStatusRecord;
import io.lahar.schema.JobStatusRecord;
import io.lahar.schema.JobTemplate;
import io.lahar.schema.Tick;
import io.lahar.schema.Topics;
import io.lahar.schema.serde.RegistrySerdes;
import io.lahar.streams.engine.EngineTopology;
import io.lahar.streams.kafka.GlobalStoreUpdater;
import io.lahar.streams.kafka.Guards;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.state.Stores;

/**
 * The JobFlow part of the streams-app topology.
 *
 * <pre>
 * job-lifecycle (statuses of the flows' jobs, by flow key) ─▶ (repartition: lahar-streams-flow-job-status-repartition)─┐
 * lahar.command-results ─▶ flow-job-rejection-rekey (rejected SubmitJob of a flow's job) ─▶
 *    (repartition: lahar-streams-flow-job-rejections-repartition, by flow key) ────────────────────────────────────┤
 * lahar.flow-commands ─────────────────────────────────────────────────────────────────────────────────────────────┤
 * lahar.flow-clock ────────────────────────────────────────────────────────────────────────────────────────────────┴▶ flow-engine
 *    stores: flows, job-templates, flow-timers; global: job-templates-global (lahar.job-templates),
 *    flow-status-global (lahar.flow-status)
 * flow-engine ─▶ lahar.command-results, lahar.job-commands (SubmitJob/DeleteJob of the flows' jobs),
 *                lahar.flow-status (compacted; tombstone on delete), lahar.job-templates (compacted;
 *                tombstone on delete), lahar.dead-letters
 * </pre>
 * The repartitions are Kafka Streams internal topics, which only the DSL declares: they, the job
 * inputs' source and the lifecycle node before them are built with a {@link StreamsBuilder}
 * ({@code LaharTopology}), and the rest added to the resulting topology with the Processor API.
 */
public final class FlowTopology {

    /** The repartition's name: its internal topic is {@code <application.id>-flow-job-status-repartition}. */
    public static final String REPARTITION = "flow-job-status";
    /**
     * The first node of that repartition (the DSL's null-key filter before its sink), to which the
     * job lifecycle forwards the flows' statuses: Kafka Streams names it after the repartition.
     */
    public static final String JOB_STATUS_NODE = REPARTITION + "-repartition-filter";
    /** The repartition of job admission's refusals of the flows' jobs: {@code <application.id>-flow-job-rejections-repartition}. */
    public static final String REJECTIONS = "flow-job-rejections";

    public static final String ENGINE = "flow-engine";
    /** Re-keys job admission's refusals of the flows' jobs to the flow; forwards them to {@link #REJECTIONS_NODE}. */
    static final String REKEY = "flow-job-rejection-rekey";
    /** The first node of the rejections' repartition, named by Kafka Streams after it. */
    static final String REJECTIONS_NODE = REJECTIONS + "-repartition-filter";

    static final String REKEY_DEAD_LETTERS = "flow-job-rejection-dead-letters";
    static final String COMMANDS_SOURCE = "flow-commands-source";
    static final String CLOCK_SOURCE = "flow-clock-source";

    private FlowTopology() {}

    /**
     * The DSL steps: the status of the flows' jobs, which the job lifecycle forwards under the
     * flow's key to {@link #JOB_STATUS_NODE} ({@code FlowStatusFeed}), and job admission's refusals
     * of the flows' jobs, re-keyed from {@code lahar.command-results}; each through a repartition
     * topic co-partitioned with the flows.
     *
     * @param lifecycle the job lifecycle node's stream: what it forwards to {@link #JOB_STATUS_NODE}
     *                  is a flow's key and a {@code lahar.job-status} record's bytes
     * @return {@code lahar.command-results} as read (a topic has one source): the CronJob engine
     *         re-keys its own refusals from it
     */
    public static KStream<String, byte[]> addRepartitions(
            StreamsBuilder builder, RegistrySerdes serdes, KStream<Object, Object> lifecycle, Guards guards) {
        EngineTopology.repartitionByOwner(flowStatuses(lifecycle), REPARTITION);
        var resultDecoder = serdes.value(CommandResult.class).deserializer();
        KStream<String, byte[]> results = builder.stream(
                Topics.COMMAND_RESULTS.name(),
                Consumed.with(Serdes.String(), Serdes.ByteArray()).withName("flow-job-results-source"));
        EngineTopology.repartitionByOwner(
                results.process(
                        () -> guards.guard(new FlowJobRejectionRekey(resultDecoder), REKEY_DEAD_LETTERS),
                        Named.as(REKEY)),
                REJECTIONS);
        return results;
    }

    /**
     * The lifecycle forwards records of many types, each to its own sink by name; the only ones
     * that reach its DSL child are the flows' statuses, {@code String} keys and {@code byte[]} values.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static KStream<String, byte[]> flowStatuses(KStream<Object, Object> lifecycle) {
        return (KStream) lifecycle;
    }

    /**
     * Fails when {@link #JOB_STATUS_NODE} does not follow {@code lifecycle}: the lifecycle forwards
     * to it by name, which Kafka Streams derives from the repartition's.
     */
    public static void requireJobStatusNode(Topology topology, String lifecycle) {
        requireNode(topology, lifecycle, JOB_STATUS_NODE);
    }

    /** Fails when {@code next} does not follow {@code node}: {@code node} forwards to it by name. */
    public static void requireNode(Topology topology, String node, String next) {
        EngineTopology.requireNode(topology, node, next);
    }

    /**
     * An in-memory copy of a compacted topic every task may read: its own log is the topic, so the
     * store keeps none. Its source and updater nodes are named {@code <nodes>-source} and
     * {@code <nodes>-updater}.
     */
    private static <T extends SpecificRecord> void addGlobalStore(
            Topology topology, String store, String nodes, Topics.TopicSpec topic, Serde<T> serde, Guards guards) {
        topology.addGlobalStore(
                Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(store), Serdes.String(), Serdes.ByteArray())
                        .withLoggingDisabled(),
                nodes + "-source",
                new StringDeserializer(),
                new ByteArrayDeserializer(),
                topic.name(),
                nodes + "-updater",
                () -> new GlobalStoreUpdater<>(store, topic, serde.deserializer(), guards));
    }

    /**
     * The engine, its stores and sinks, added to {@code topology} (which must hold the step of
     * {@link #addRepartitions}).
     *
     * @param tickBudget at most this many flows are woken by one tick per partition
     * @param limits     the bounds admission puts on the numbers of JobTemplates and JobFlows
     */
    public static void addTo(
            Topology topology, RegistrySerdes serdes, int tickBudget, Guards guards, AdmissionLimits limits) {
        var templateSerde = serdes.value(JobTemplate.class);
        var flowStatusSerde = serdes.value(JobFlowStatusRecord.class);
        addGlobalStore(
                topology,
                FlowStores.GLOBAL_TEMPLATES,
                "job-templates-global",
                Topics.JOB_TEMPLATES,
                templateSerde,
                guards);
        addGlobalStore(
                topology,
                FlowStores.GLOBAL_FLOW_STATUS,
                "flow-status-global",
                Topics.FLOW_STATUS,
                flowStatusSerde,
                guards);

        topology.addSource(
                COMMANDS_SOURCE, new ByteArrayDeserializer(), new ByteArrayDeserializer(), Topics.FLOW_COMMANDS.name());
        // A clock topic of its own: on lahar.clock the engine would share the job inputs' source, and
        // so their task, which Kafka Streams checks partition by partition before every record.
        topology.addSource(
                CLOCK_SOURCE, new ByteArrayDeserializer(), new ByteArrayDeserializer(), Topics.FLOW_CLOCK.name());
        var decoders = new FlowEngineProcessor.Decoders(
                serdes.value(FlowCommand.class).deserializer(),
                serdes.value(JobStatusRecord.class).deserializer(),
                serdes.value(Tick.class).deserializer(),
                templateSerde.deserializer(),
                flowStatusSerde.deserializer(),
                serdes.value(CommandResult.class).deserializer());
        EngineTopology.addEngine(
                topology,
                ENGINE,
                () -> guards.guard(new FlowEngineProcessor(decoders, tickBudget, limits), FlowSinks.DEAD_LETTERS),
                COMMANDS_SOURCE,
                REPARTITION,
                REJECTIONS,
                CLOCK_SOURCE);
        EngineTopology.addStores(topology, ENGINE, FlowStores.FLOWS, FlowStores.TEMPLATES, FlowStores.TIMERS);
        // The global stores need no connection: every processor may read them.

        EngineTopology.addJobSinks(topology, serdes, ENGINE, FlowSinks.RESULTS, FlowSinks.JOB_COMMANDS);
        topology.addSink(
                FlowSinks.FLOW_STATUS,
                Topics.FLOW_STATUS.name(),
                new StringSerializer(),
                flowStatusSerde.serializer(),
                ENGINE);
        topology.addSink(
                FlowSinks.TEMPLATES,
                Topics.JOB_TEMPLATES.name(),
                new StringSerializer(),
                templateSerde.serializer(),
                ENGINE);
        EngineTopology.addDeadLetters(topology, serdes, FlowSinks.DEAD_LETTERS, ENGINE);
        requireNode(topology, REKEY, REJECTIONS_NODE);
        EngineTopology.addDeadLetters(topology, serdes, REKEY_DEAD_LETTERS, REKEY);
    }
}
