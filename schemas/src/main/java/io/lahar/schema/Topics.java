package io.lahar.schema;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.kafka.common.config.TopicConfig;

/**
 * The Kafka topics of Lahar: names, partition counts, cleanup policies, keys and value schemas.
 *
 * <p>This is the one place these facts live; {@code docs/topics.md} mirrors it (a test keeps the
 * two in step). Topic names are a public contract: producers and dashboards outside Lahar use
 * them, so a name never changes.
 *
 * <p>Everything about one Job is keyed by the same string, {@code namespace/name} (see
 * {@link #jobKey}), and lives in topics with {@link #JOB_PARTITIONS} partitions, so the default
 * partitioner puts a Job's commands, pod events, status, pod group, intents and decisions in the
 * same partition number: one stream task sees all of them, in order.
 */
public final class Topics {

    /**
     * Partition count of every co-partitioned topic. Chosen once: changing it moves keys between
     * partitions and breaks co-partitioning of existing data.
     */
    public static final int JOB_PARTITIONS = 6;

    /**
     * Partition count of the small cluster-wide topics (nodes, queues, templates, dead letters):
     * read whole by every instance (global tables), so one partition keeps them totally ordered.
     */
    public static final int GLOBAL_PARTITIONS = 1;

    /**
     * The codec every topic of the contract is stored in (its {@code compression.type}): gzip, the
     * one codec that every mainstream client decodes without a plugin (kafkajs and kafka-python read
     * no lz4, snappy or zstd of their own). The streams-app's producer keeps compressing with lz4,
     * and the broker writes its batches again in gzip; Kafka Streams' internal topics, which only
     * Lahar reads, keep its lz4. See docs/decisions/030-compression-for-other-languages.md.
     */
    public static final String COMPRESSION = "gzip";

    /**
     * The gzip level of the contract's topics ({@code compression.gzip.level}): the fastest, since
     * the broker compresses every batch Lahar writes once more (decision 030).
     */
    public static final int GZIP_LEVEL = 1;

    /**
     * One topic of the contract.
     *
     * @param name the topic name
     * @param partitions number of partitions
     * @param compacted true for {@code cleanup.policy=compact} (latest value per key, tombstones
     *     delete), false for {@code delete} (a time-retained log)
     * @param keyDescription what the record key is, in words (keys are UTF-8 strings)
     * @param valueSchema the Avro schema of the record value
     */
    public record TopicSpec(String name, int partitions, boolean compacted, String keyDescription, Schema valueSchema) {

        public TopicSpec {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(keyDescription, "keyDescription");
            Objects.requireNonNull(valueSchema, "valueSchema");
            if (partitions < 1) {
                throw new IllegalArgumentException(name + ": partitions must be at least 1");
            }
        }

        /** The topic's {@code cleanup.policy} setting: {@code compact} or {@code delete}. */
        public String cleanupPolicy() {
            return compacted ? "compact" : "delete";
        }

        /**
         * The topic-level settings of the contract: {@code cleanup.policy}, and the codec the broker
         * stores the topic's batches in ({@link #COMPRESSION}, at {@link #GZIP_LEVEL}).
         */
        public Map<String, String> configs() {
            return Map.of(
                    TopicConfig.CLEANUP_POLICY_CONFIG,
                    cleanupPolicy(),
                    TopicConfig.COMPRESSION_TYPE_CONFIG,
                    COMPRESSION,
                    TopicConfig.COMPRESSION_GZIP_LEVEL_CONFIG,
                    Integer.toString(GZIP_LEVEL));
        }

        /** The registry subject of the value schema (TopicIdStrategy: {@code <topic>-value}). */
        public String valueSubject() {
            return name + "-value";
        }

        /**
         * True when the topic is co-partitioned with the Job topics (same partition count), so one
         * stream task reads the same partition number of all of them.
         */
        public boolean coPartitioned() {
            return partitions == JOB_PARTITIONS;
        }
    }

    private static final String JOB_KEY = "namespace/name of the Job";

    public static final TopicSpec JOB_COMMANDS =
            new TopicSpec("lahar.job-commands", JOB_PARTITIONS, false, JOB_KEY, JobCommand.getClassSchema());

    public static final TopicSpec COMMAND_RESULTS = new TopicSpec(
            "lahar.command-results",
            JOB_PARTITIONS,
            false,
            "namespace/name of the Job, JobFlow, JobTemplate or CronJob",
            CommandResult.getClassSchema());

    public static final TopicSpec POD_EVENTS = new TopicSpec(
            "lahar.pod-events",
            JOB_PARTITIONS,
            false,
            "namespace/name of the Job owning the pod",
            PodEvent.getClassSchema());

    public static final TopicSpec JOB_STATUS =
            new TopicSpec("lahar.job-status", JOB_PARTITIONS, true, JOB_KEY, JobStatusRecord.getClassSchema());

    public static final TopicSpec JOB_TRANSITIONS =
            new TopicSpec("lahar.job-transitions", JOB_PARTITIONS, false, JOB_KEY, JobTransition.getClassSchema());

    public static final TopicSpec POD_GROUPS = new TopicSpec(
            "lahar.pod-groups",
            JOB_PARTITIONS,
            true,
            "namespace/name of the Job owning the pod group, or namespace/podgroup:<name> of a PodGroup no Job owns",
            PodGroup.getClassSchema());

    public static final TopicSpec POD_INTENTS = new TopicSpec(
            "lahar.pod-intents",
            JOB_PARTITIONS,
            false,
            "namespace/name of the Job the pod or plugin object belongs to",
            PodIntent.getClassSchema());

    /**
     * The pods of other workloads (PodGroup CRs no Lahar Job owns, bare pods with Volcano's
     * schedulerName) as the k8s-bridge sees them; their pod groups are on {@link #POD_GROUPS} under
     * {@link WorkloadKeys}. Keyed by the pod, compacted: a tombstone when the pod is deleted.
     */
    public static final TopicSpec WORKLOAD_PODS = new TopicSpec(
            "lahar.workload-pods", JOB_PARTITIONS, true, "namespace/name of the pod", WorkloadPod.getClassSchema());

    public static final TopicSpec SCHEDULER_DECISIONS = new TopicSpec(
            "lahar.scheduler-decisions",
            JOB_PARTITIONS,
            false,
            "namespace/name of the Job whose pod group is decided on, or namespace/podgroup:<name> of a PodGroup no Job owns",
            SchedulerDecision.getClassSchema());

    public static final TopicSpec NODES =
            new TopicSpec("lahar.nodes", GLOBAL_PARTITIONS, true, "node name", Node.getClassSchema());

    public static final TopicSpec QUEUES =
            new TopicSpec("lahar.queues", GLOBAL_PARTITIONS, true, "queue name", Queue.getClassSchema());

    public static final TopicSpec QUEUE_STATUS =
            new TopicSpec("lahar.queue-status", GLOBAL_PARTITIONS, true, "queue name", QueueStatus.getClassSchema());

    /**
     * The cluster's PriorityClasses, which the scheduler resolves every pod group's and pod's
     * priority from at each session, as Volcano's scheduler cache does from its informer.
     */
    public static final TopicSpec PRIORITY_CLASSES = new TopicSpec(
            "lahar.priority-classes", GLOBAL_PARTITIONS, true, "PriorityClass name", PriorityClass.getClassSchema());

    public static final TopicSpec JOB_TEMPLATES = new TopicSpec(
            "lahar.job-templates",
            GLOBAL_PARTITIONS,
            true,
            "namespace/name of the JobTemplate",
            JobTemplate.getClassSchema());

    public static final TopicSpec FLOW_COMMANDS = new TopicSpec(
            "lahar.flow-commands",
            JOB_PARTITIONS,
            false,
            "namespace/name of the JobFlow or JobTemplate",
            FlowCommand.getClassSchema());

    public static final TopicSpec FLOW_STATUS = new TopicSpec(
            "lahar.flow-status",
            JOB_PARTITIONS,
            true,
            "namespace/name of the JobFlow",
            JobFlowStatusRecord.getClassSchema());

    public static final TopicSpec CRONJOB_COMMANDS = new TopicSpec(
            "lahar.cronjob-commands",
            JOB_PARTITIONS,
            false,
            "namespace/name of the CronJob",
            CronJobCommand.getClassSchema());

    public static final TopicSpec CRONJOB_STATUS = new TopicSpec(
            "lahar.cronjob-status",
            JOB_PARTITIONS,
            true,
            "namespace/name of the CronJob",
            CronJobStatusRecord.getClassSchema());

    public static final TopicSpec CLOCK = new TopicSpec(
            "lahar.clock", JOB_PARTITIONS, false, "the partition number, as a decimal string", Tick.getClassSchema());

    /**
     * The same ticks as {@link #CLOCK}, for the JobFlow engine: a topic has one source node in a
     * Kafka Streams topology, and with the flows ticking on {@code lahar.clock} they shared the job
     * lifecycle's source and task, whose readiness check Kafka Streams makes for every record over
     * every partition of the task (seven instead of four).
     */
    public static final TopicSpec FLOW_CLOCK = new TopicSpec(
            "lahar.flow-clock",
            JOB_PARTITIONS,
            false,
            "the partition number, as a decimal string",
            Tick.getClassSchema());

    /**
     * The same ticks again, for the CronJob engine: a source of its own, as for the JobFlow engine,
     * so the CronJobs are a sub-topology of their own.
     */
    public static final TopicSpec CRON_CLOCK = new TopicSpec(
            "lahar.cron-clock",
            JOB_PARTITIONS,
            false,
            "the partition number, as a decimal string",
            Tick.getClassSchema());

    public static final TopicSpec DEAD_LETTERS = new TopicSpec(
            "lahar.dead-letters",
            GLOBAL_PARTITIONS,
            false,
            "the failed record's key, byte for byte",
            DeadLetter.getClassSchema());

    private static final List<TopicSpec> ALL = List.of(
            JOB_COMMANDS,
            COMMAND_RESULTS,
            POD_EVENTS,
            JOB_STATUS,
            JOB_TRANSITIONS,
            POD_GROUPS,
            POD_INTENTS,
            WORKLOAD_PODS,
            SCHEDULER_DECISIONS,
            NODES,
            QUEUES,
            QUEUE_STATUS,
            PRIORITY_CLASSES,
            JOB_TEMPLATES,
            FLOW_COMMANDS,
            FLOW_STATUS,
            CRONJOB_COMMANDS,
            CRONJOB_STATUS,
            CLOCK,
            FLOW_CLOCK,
            CRON_CLOCK,
            DEAD_LETTERS);

    private Topics() {}

    /** Every topic of the contract, in the order docs/topics.md lists them. */
    public static List<TopicSpec> all() {
        return ALL;
    }

    /** The topic of that name, if it is one of Lahar's. */
    public static Optional<TopicSpec> byName(String name) {
        return ALL.stream().filter(t -> t.name().equals(name)).findFirst();
    }

    /**
     * The record key of everything about one namespaced object: {@code namespace/name}. Lenient on
     * purpose (never throws), so a producer can key even a command admission will reject; use
     * {@link JobKey} to validate or parse a key.
     */
    public static String jobKey(String namespace, String name) {
        return namespace + "/" + name;
    }

    /**
     * Whether {@code key} is {@link #jobKey(String, String) jobKey(namespace, name)}, without building
     * it: the lifecycle checks the key of every pod event against the event's job.
     */
    public static boolean isJobKey(String key, String namespace, String name) {
        return key != null
                && namespace != null
                && name != null
                && key.length() == namespace.length() + 1 + name.length()
                && key.startsWith(namespace)
                && key.charAt(namespace.length()) == '/'
                && key.endsWith(name);
    }

    /**
     * The key of the clock record for one partition: its number in decimal. The ticker still sends
     * to that partition explicitly, because the default partitioner would hash the key elsewhere.
     */
    public static String clockKey(int partition) {
        return Integer.toString(partition);
    }
}
