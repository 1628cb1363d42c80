package io.lahar.streams;

import io.lahar.core.admission.AdmissionLimits;
import io.lahar.schema.CommandResult;
import io.lahar.schema.DeadLetter;
import io.lahar.schema.JobCommand;
import io.lahar.schema.JobStatusRecord;
import io.lahar.schema.JobTransition;
import io.lahar.schema.KafkaClients;
import io.lahar.schema.PodEvent;
import io.lahar.schema.PodGroup;
import io.lahar.schema.PodIntent;
import io.lahar.schema.Queue;
import io.lahar.schema.SchedulerDecision;
import io.lahar.schema.Tick;
import io.lahar.schema.TopicBootstrap;
import io.lahar.schema.Topics;
import io.lahar.schema.serde.RegistrySerdes;
import io.lahar.streams.cron.CronTopology;
import io.lahar.streams.flow.FlowTopology;
import io.lahar.streams.job.CronStatusFeed;
import io.lahar.streams.job.FlowStatusFeed;
import io.lahar.streams.job.JobLifecycleProcessor;
import io.lahar.streams.job.JobStore;
import io.lahar.streams.job.Sinks;
import io.lahar.streams.job.TimerIndex;
import io.lahar.streams.kafka.GlobalStoreUpdater;
import io.lahar.streams.kafka.Guards;
import io.lahar.streams.queue.QueueLookup;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import java.util.List;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.state.Stores;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The streams-app topology. Sources read bytes so that a record which does not decode reaches a
 * processor; every processor runs inside a {@code GuardedProcessor}, which sends what it cannot
 * handle to the dead-letter topic instead of stopping the stream thread ({@link Guards}).
 */
@ApplicationScoped
public class LaharTopology {

    @Inject
    Guards guards;

    @Inject
    KafkaClients kafka;

    @ConfigProperty(name = "lahar.topics.create", defaultValue = "true")
    boolean createTopics;

    @ConfigProperty(name = "lahar.clock.tick-budget", defaultValue = "500")
    int tickBudget;

    /** The lifecycle node's name. */
    public static final String LIFECYCLE = "job-lifecycle";
    /** The source of every job input, the jobs' clock included. */
    public static final String JOB_INPUTS = "job-inputs";

    static final int DEFAULT_TICK_BUDGET = 500;
    static final java.time.Duration DEFAULT_MAX_CLOCK_STEP = java.time.Duration.ofMinutes(1);

    @ConfigProperty(name = "lahar.clock.max-step", defaultValue = "1M")
    java.time.Duration maxClockStep;

    /** The most pods one Job may ask for (docs/decisions/040-admission-limits.md). */
    @ConfigProperty(
            name = "lahar.admission.max-pods-per-job",
            defaultValue = "" + AdmissionLimits.DEFAULT_MAX_PODS_PER_JOB)
    int maxPodsPerJob;

    @Produces
    public Topology topology() {
        if (createTopics) {
            TopicBootstrap.ensureTopics(kafka);
        }
        return build(guards, tickBudget, maxClockStep.toMillis(), new AdmissionLimits(maxPodsPerJob));
    }

    /**
     * The topology itself, separate from CDI so TopologyTestDriver tests build the same one; the
     * global stores' dead letters go through a producer of their own ({@code GlobalDeadLetters.producer}).
     */
    public static Topology build(RegistrySerdes serdes) {
        return build(new Guards(serdes));
    }

    /** The topology with other admission limits (tests). */
    public static Topology build(RegistrySerdes serdes, AdmissionLimits limits) {
        return build(new Guards(serdes), DEFAULT_TICK_BUDGET, DEFAULT_MAX_CLOCK_STEP.toMillis(), limits);
    }

    /**
     * With the guards of the client that runs it (their serdes; the uncaught-exception handler
     * shares their {@link Guards#fatal()}).
     */
    public static Topology build(Guards guards) {
        return build(guards, DEFAULT_TICK_BUDGET, DEFAULT_MAX_CLOCK_STEP.toMillis(), AdmissionLimits.DEFAULTS);
    }

    /**
     * @param tickBudget   at most this many jobs are woken by one clock tick per partition
     * @param maxClockStep the most (ms) the timers' clock advances on one tick: after an outage,
     *                     deadlines that passed meanwhile expire over the next ticks, not at once
     * @param limits       the bounds admission puts on the numbers of Jobs, JobTemplates and JobFlows
     */
    public static Topology build(Guards guards, int tickBudget, long maxClockStep, AdmissionLimits limits) {
        RegistrySerdes serdes = guards.serdes();
        // The lifecycle hands the statuses of the JobFlows' jobs to the flow engine through a
        // repartition topic, which only the DSL declares: the source, the lifecycle node and the
        // re-keying steps come from a StreamsBuilder, everything else is the Processor API.
        StreamsBuilder builder = new StreamsBuilder();
        var queueSerde = serdes.value(Queue.class);

        // Every input about jobs in one source: the topics are co-partitioned, so one task reads
        // partition p of each, and the lifecycle node sees a job's records in the order read.
        KStream<byte[], byte[]> inputs = builder.stream(
                List.of(
                        Topics.JOB_COMMANDS.name(),
                        Topics.POD_EVENTS.name(),
                        Topics.SCHEDULER_DECISIONS.name(),
                        Topics.CLOCK.name()),
                Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()).withName(JOB_INPUTS));
        var decoders = new JobLifecycleProcessor.Decoders(
                serdes.value(JobCommand.class).deserializer(),
                serdes.value(PodEvent.class).deserializer(),
                serdes.value(SchedulerDecision.class).deserializer(),
                serdes.value(Tick.class).deserializer(),
                queueSerde.deserializer());
        var flows = new FlowStatusFeed(FlowTopology.JOB_STATUS_NODE, serdes.directValue(JobStatusRecord.class));
        var crons = new CronStatusFeed(CronTopology.JOB_STATUS_NODE);
        KStream<Object, Object> lifecycle = inputs.process(
                () -> guards.guard(
                        new JobLifecycleProcessor(decoders, flows, crons, tickBudget, maxClockStep, limits),
                        Sinks.DEAD_LETTERS),
                Named.as(LIFECYCLE));
        KStream<String, byte[]> results = FlowTopology.addRepartitions(builder, serdes, lifecycle, guards);
        CronTopology.addRepartitions(serdes, lifecycle, results, guards);
        Topology topology = builder.build();
        FlowTopology.requireJobStatusNode(topology, LIFECYCLE);
        FlowTopology.requireNode(topology, LIFECYCLE, CronTopology.JOB_STATUS_NODE);

        topology.addGlobalStore(
                Stores.keyValueStoreBuilder(
                                Stores.inMemoryKeyValueStore(QueueLookup.STORE), Serdes.String(), Serdes.ByteArray())
                        .withLoggingDisabled(),
                "queues-source",
                new StringDeserializer(),
                new ByteArrayDeserializer(),
                Topics.QUEUES.name(),
                "queues-store-updater",
                () -> new GlobalStoreUpdater<>(QueueLookup.STORE, Topics.QUEUES, queueSerde.deserializer(), guards));

        topology.addStateStore(JobStore.builder(), LIFECYCLE);
        topology.addStateStore(JobStore.podsBuilder(), LIFECYCLE);
        topology.addStateStore(
                Stores.keyValueStoreBuilder(
                        Stores.persistentKeyValueStore(TimerIndex.NAME), Serdes.String(), Serdes.ByteArray()),
                LIFECYCLE);

        topology.addSink(
                Sinks.RESULTS,
                Topics.COMMAND_RESULTS.name(),
                new StringSerializer(),
                serdes.value(CommandResult.class).serializer(),
                LIFECYCLE);
        topology.addSink(
                Sinks.STATUS,
                Topics.JOB_STATUS.name(),
                new StringSerializer(),
                serdes.directValue(JobStatusRecord.class),
                LIFECYCLE);
        topology.addSink(
                Sinks.TRANSITIONS,
                Topics.JOB_TRANSITIONS.name(),
                new StringSerializer(),
                serdes.directValue(JobTransition.class),
                LIFECYCLE);
        topology.addSink(
                Sinks.POD_INTENTS,
                Topics.POD_INTENTS.name(),
                new StringSerializer(),
                serdes.value(PodIntent.class).serializer(),
                LIFECYCLE);
        topology.addSink(
                Sinks.POD_GROUPS,
                Topics.POD_GROUPS.name(),
                new StringSerializer(),
                serdes.value(PodGroup.class).serializer(),
                LIFECYCLE);
        topology.addSink(
                Sinks.DEAD_LETTERS,
                Topics.DEAD_LETTERS.name(),
                new ByteArraySerializer(),
                serdes.value(DeadLetter.class).serializer(),
                LIFECYCLE);
        FlowTopology.addTo(topology, serdes, tickBudget, guards, limits);
        CronTopology.addTo(topology, serdes, tickBudget, guards, limits);
        return topology;
    }
}
