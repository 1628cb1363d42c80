package io.lahar.streams.cron;

import io.lahar.core.admission.AdmissionLimits;
import io.lahar.schema.CommandResult;
import io.lahar.schema.CronJobCommand;
import io.lahar.schema.CronJobStatusRecord;
import io.lahar.schema.Tick;
import io.lahar.schema.Topics;
import io.lahar.schema.serde.RegistrySerdes;
import io.lahar.streams.engine.EngineTopology;
import io.lahar.streams.flow.FlowJobRejectionRekey;
import io.lahar.streams.flow.FlowTopology;
import io.lahar.streams.kafka.Guards;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;

/**
 * The CronJob part of the streams-app topology.
 *
 * <pre>
 * job-lifecycle (what it observes of the CronJobs' jobs, by CronJob key) ─▶ (repartition: cron-job-status)─┐
 * lahar.command-results ─▶ cron-job-rejection-rekey (rejected SubmitJob of a CronJob's job) ─▶
 *    (repartition: cron-job-rejections, by CronJob key) ───────────────────────────────────────────────────┤
 * lahar.cronjob-commands ──────────────────────────────────────────────────────────────────────────────────┤
 * lahar.cron-clock ────────────────────────────────────────────────────────────────────────────────────────┴▶ cron-engine
 *    stores: cronjobs, cron-timers
 * cron-engine ─▶ lahar.command-results, lahar.job-commands (SubmitJob/DeleteJob of the CronJobs' jobs),
 *                lahar.cronjob-status (compacted; tombstone on delete), lahar.dead-letters
 * </pre>
 * The engine and the re-keying run inside a {@code GuardedProcessor}, each with its sink to
 * {@code lahar.dead-letters}: a record they cannot process is dead-lettered with its reason.
 * As for the JobFlows, the repartitions come from the DSL ({@link #addRepartitions}) and the rest
 * is added to the built topology with the Processor API ({@link #addTo}).
 */
public final class CronTopology {

    /** Its internal topic is {@code <application.id>-cron-job-status-repartition}. */
    public static final String REPARTITION = "cron-job-status";
    /** The repartition's first node, to which the job lifecycle forwards (Kafka Streams names it after the repartition). */
    public static final String JOB_STATUS_NODE = REPARTITION + "-repartition-filter";

    public static final String REJECTIONS = "cron-job-rejections";
    /** Re-keys job admission's refusals of the CronJobs' jobs to the CronJob; forwards them to {@link #REJECTIONS_NODE}. */
    static final String REKEY = "cron-job-rejection-rekey";
    /** The first node of the rejections' repartition, named by Kafka Streams after it. */
    static final String REJECTIONS_NODE = REJECTIONS + "-repartition-filter";

    static final String REKEY_DEAD_LETTERS = "cron-job-rejection-dead-letters";
    public static final String ENGINE = "cron-engine";
    /** CronJob key → {@link CronEntry}: persistent, on the partition of the CronJob's key; what the REST API reads. */
    public static final String STORE = "cronjobs";
    /** The CronJobs with something due, by due time ({@link io.lahar.streams.clock.DueIndex}). */
    static final String TIMERS = "cron-timers";

    static final String COMMANDS_SOURCE = "cronjob-commands-source";
    static final String CLOCK_SOURCE = "cron-clock-source";

    private CronTopology() {}

    /**
     * @param lifecycle the job lifecycle's stream: what it forwards to {@link #JOB_STATUS_NODE} is a
     *                  CronJob's key and a {@link CronObservation}'s bytes
     * @param results   {@code lahar.command-results} as read ({@link FlowTopology#addRepartitions})
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public static void addRepartitions(
            RegistrySerdes serdes, KStream<Object, Object> lifecycle, KStream<String, byte[]> results, Guards guards) {
        EngineTopology.repartitionByOwner((KStream<String, byte[]>) (KStream) lifecycle, REPARTITION);
        var resultDecoder = serdes.value(CommandResult.class).deserializer();
        EngineTopology.repartitionByOwner(
                results.process(
                        () -> guards.guard(
                                new FlowJobRejectionRekey(CronEngine.SENDER_PREFIX, REJECTIONS_NODE, resultDecoder),
                                REKEY_DEAD_LETTERS),
                        Named.as(REKEY)),
                REJECTIONS);
    }

    /**
     * The engine, its stores and sinks, added to {@code topology} (which must hold the steps of
     * {@link #addRepartitions}).
     *
     * @param tickBudget at most this many CronJobs are woken by one tick per partition
     * @param limits     the bounds job admission puts on a job's numbers, which the job template is held to
     */
    public static void addTo(
            Topology topology, RegistrySerdes serdes, int tickBudget, Guards guards, AdmissionLimits limits) {
        topology.addSource(
                COMMANDS_SOURCE,
                new ByteArrayDeserializer(),
                new ByteArrayDeserializer(),
                Topics.CRONJOB_COMMANDS.name());
        topology.addSource(
                CLOCK_SOURCE, new ByteArrayDeserializer(), new ByteArrayDeserializer(), Topics.CRON_CLOCK.name());
        var decoders = new CronEngineProcessor.Decoders(
                serdes.value(CronJobCommand.class).deserializer(),
                serdes.value(Tick.class).deserializer(),
                serdes.value(CommandResult.class).deserializer());
        EngineTopology.addEngine(
                topology,
                ENGINE,
                () -> guards.guard(new CronEngineProcessor(decoders, tickBudget, limits), CronSinks.DEAD_LETTERS),
                COMMANDS_SOURCE,
                REPARTITION,
                REJECTIONS,
                CLOCK_SOURCE);
        EngineTopology.addStores(topology, ENGINE, STORE, TIMERS);
        EngineTopology.addJobSinks(topology, serdes, ENGINE, CronSinks.RESULTS, CronSinks.JOB_COMMANDS);
        topology.addSink(
                CronSinks.STATUS,
                Topics.CRONJOB_STATUS.name(),
                new StringSerializer(),
                serdes.value(CronJobStatusRecord.class).serializer(),
                ENGINE);
        EngineTopology.addDeadLetters(topology, serdes, CronSinks.DEAD_LETTERS, ENGINE);
        EngineTopology.requireNode(topology, REKEY, REJECTIONS_NODE);
        EngineTopology.addDeadLetters(topology, serdes, REKEY_DEAD_LETTERS, REKEY);
    }
}
