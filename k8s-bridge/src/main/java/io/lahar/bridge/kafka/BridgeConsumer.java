package io.lahar.bridge.kafka;

import io.lahar.bridge.reconcile.CommandResultReporter;
import io.lahar.bridge.reconcile.DecisionReconciler;
import io.lahar.bridge.reconcile.FlowStatusWriter;
import io.lahar.bridge.reconcile.JobStatusWriter;
import io.lahar.bridge.reconcile.PodGroupReconciler;
import io.lahar.bridge.reconcile.PodIntentReconciler;
import io.lahar.bridge.reconcile.QueueStatusWriter;
import io.lahar.bridge.reconcile.RecordSink;
import io.lahar.schema.CommandResult;
import io.lahar.schema.DeletePod;
import io.lahar.schema.JobFlowStatusRecord;
import io.lahar.schema.JobStatusRecord;
import io.lahar.schema.PodGroup;
import io.lahar.schema.PodIntent;
import io.lahar.schema.QueueStatus;
import io.lahar.schema.SchedulerDecision;
import io.lahar.schema.Topics;
import io.lahar.schema.deadletter.DeadLetters;
import io.lahar.schema.serde.RegistrySerdes;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.Optional;
import java.util.Properties;

/**
 * The bridge's input loop: pod intents, scheduler decisions, pod groups, job, flow and queue status
 * and command results (for commands from Volcano CRs), read with a
 * plain consumer and handed to the reconcilers one record at a time, in partition order. Offsets are
 * committed once a record's work is done (at least once: every reconciler is idempotent); a bind
 * or create that waits in memory holds its partition's offset, so a restart reads it again rather
 * than losing it ({@link OffsetLedger}), and a look-ahead for deletions keeps the re-read creates
 * from resurrecting pods ({@link DeletionLookahead}). A record
 * that cannot be decoded or reconciled goes to the dead-letter topic and the loop goes on; one that
 * failed because the cluster or the registry is unreachable stays, with the rest of its partition,
 * and is tried again after a pause (1 s doubling to 30 s). Between
 * polls, the binds and creates that wait for a pod to appear or go are retried.
 * <p>
 * Plain clients rather than SmallRye channels: the loop must hold each record until the cluster
 * has answered (with retries and backoff), decide per record, keep waiting work between polls and
 * commit only what is done — straightforward with one consumer thread, contorted with reactive
 * acknowledgements; and the registry serdes must be ours (the Quarkus class-loading trap).
 */
public final class BridgeConsumer implements Runnable, AutoCloseable {

    private static final Logger LOG = Logger.getLogger(BridgeConsumer.class);
    public static final String PROCESSOR = "k8s-bridge";
    static final Duration RETRY_INTERVAL = Duration.ofMillis(500);
    static final Duration PAUSE_FIRST = Duration.ofSeconds(1);
    static final Duration PAUSE_MAX = Duration.ofSeconds(30);
    static final List<String> TOPICS = List.of(Topics.POD_INTENTS.name(), Topics.SCHEDULER_DECISIONS.name(),
            Topics.POD_GROUPS.name(), Topics.JOB_STATUS.name(), Topics.COMMAND_RESULTS.name(), Topics.FLOW_STATUS.name(), Topics.QUEUE_STATUS.name());

    private final KafkaConsumer<String, byte[]> consumer;
    private final Deserializer<PodIntent> intents;
    private final Deserializer<SchedulerDecision> decisions;
    private final Deserializer<PodGroup> podGroups;
    private final Deserializer<JobStatusRecord> statuses;
    private final Deserializer<CommandResult> results;
    private final Deserializer<JobFlowStatusRecord> flowStatuses;
    private final Deserializer<QueueStatus> queueStatuses;
    private final PodIntentReconciler intentReconciler;
    private final DecisionReconciler decisionReconciler;
    private final PodGroupReconciler podGroupReconciler;
    private final JobStatusWriter statusWriter;
    private final FlowStatusWriter flowStatusWriter;
    private final QueueStatusWriter queueStatusWriter;
    private final CommandResultReporter resultReporter;
    private final RecordSink sink;
    private final Optional<String> namespace;
    private final OffsetLedger ledger = new OffsetLedger();
    private final DeletionLookahead lookahead;
    private volatile boolean running = true;
    private long lastRetry = System.nanoTime();

    public BridgeConsumer(String bootstrapServers, String registryUrl, String groupId,
                          PodIntentReconciler intentReconciler, DecisionReconciler decisionReconciler,
                          PodGroupReconciler podGroupReconciler, JobStatusWriter statusWriter,
                          FlowStatusWriter flowStatusWriter, QueueStatusWriter queueStatusWriter, CommandResultReporter resultReporter, RecordSink sink,
                          Optional<String> namespace) {
        this.namespace = namespace;
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 200);
        this.consumer = new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer());
        RegistrySerdes serdes = new RegistrySerdes(registryUrl);
        this.intents = serdes.value(PodIntent.class).deserializer();
        this.lookahead = new DeletionLookahead(props, intents, namespace);
        this.decisions = serdes.value(SchedulerDecision.class).deserializer();
        this.podGroups = serdes.value(PodGroup.class).deserializer();
        this.statuses = serdes.value(JobStatusRecord.class).deserializer();
        this.results = serdes.value(CommandResult.class).deserializer();
        this.flowStatuses = serdes.value(JobFlowStatusRecord.class).deserializer();
        this.queueStatuses = serdes.value(QueueStatus.class).deserializer();
        this.intentReconciler = intentReconciler;
        this.decisionReconciler = decisionReconciler;
        this.podGroupReconciler = podGroupReconciler;
        this.statusWriter = statusWriter;
        this.flowStatusWriter = flowStatusWriter;
        this.queueStatusWriter = queueStatusWriter;
        this.resultReporter = resultReporter;
        this.sink = sink;
    }

    @Override
    public void run() {
        Duration pause = PAUSE_FIRST;
        try {
            consumer.subscribe(TOPICS, new Rebalance());
            while (running) {
                var records = consumer.poll(Duration.ofMillis(250));
                Set<TopicPartition> stalled = new HashSet<>();
                for (ConsumerRecord<String, byte[]> record : records) {
                    TopicPartition partition = new TopicPartition(record.topic(), record.partition());
                    if (stalled.contains(partition)) {
                        continue;
                    }
                    Verdict verdict = handle(record);
                    if (verdict.handled() == Handled.LATER) {
                        // The cluster or the registry is away: keep the record, and the rest of its
                        // partition, for the next poll, in order; back pressure rather than loss.
                        stalled.add(partition);
                        consumer.seek(partition, record.offset());
                    } else {
                        ledger.handled(partition, record.offset());
                        if (verdict.handled() == Handled.WAITING) {
                            ledger.hold(partition, verdict.waitingKey(), record.offset());
                        }
                    }
                }
                if (!stalled.isEmpty()) {
                    sleep(pause);
                    pause = pause.multipliedBy(2).compareTo(PAUSE_MAX) > 0 ? PAUSE_MAX : pause.multipliedBy(2);
                } else {
                    pause = PAUSE_FIRST;
                }
                // Waiting work is a GET per item: often enough to follow a pod's appearance, no busier.
                if (System.nanoTime() - lastRetry >= RETRY_INTERVAL.toNanos()) {
                    retryPending();
                    lastRetry = System.nanoTime();
                }
                commit();
            }
        } catch (WakeupException e) {
            if (running) {
                throw e;
            }
        } finally {
            try {
                commit();
            } catch (RuntimeException e) {
                LOG.warnf("last commit failed (the records after it will be read again): %s", e.getMessage());
            }
            consumer.close();
        }
    }

    /** Commits what is done: never past a record whose work still waits in memory (see {@link OffsetLedger}). */
    private void commit() {
        Map<TopicPartition, OffsetAndMetadata> offsets = ledger.commitable(this::stillWaiting);
        if (!offsets.isEmpty()) {
            consumer.commitSync(offsets);
            ledger.committed(offsets);
        }
    }

    private boolean stillWaiting(String topic, String key) {
        return switch (topic) {
            case "lahar.pod-intents" -> intentReconciler.isWaiting(key);
            case "lahar.scheduler-decisions" -> decisionReconciler.isWaiting(key);
            default -> false;
        };
    }

    /**
     * Commits the partitions leaving this member; on a new assignment, looks ahead in the pod
     * intents it will read again for deletions (see {@link DeletionLookahead}).
     */
    private final class Rebalance implements ConsumerRebalanceListener {
        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            try {
                commit();
            } catch (RuntimeException e) {
                LOG.warnf("commit on revocation failed (the records after it will be read again): %s", e.getMessage());
            }
            ledger.forget(partitions);
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> partitions) {
            ledger.forget(partitions);
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            lookahead.scan(consumer, partitions, intentReconciler::deletedAhead);
        }
    }

    private void sleep(Duration pause) {
        try {
            Thread.sleep(pause.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running = false;
        }
    }

    private void retryPending() {
        try {
            intentReconciler.retryPending();
            decisionReconciler.retryPending();
        } catch (RuntimeException e) {
            LOG.warnf("retrying waiting work failed, will try again: %s", e.getMessage());
        }
    }

    /**
     * What became of a record: done (reconciled, skipped or dead-lettered), done but with work
     * waiting in memory (its offset is held until the work is done), or to be tried again later.
     */
    enum Handled { DONE, WAITING, LATER }

    /** @param waitingKey the reconciler's key of the waiting work, with {@link Handled#WAITING} */
    record Verdict(Handled handled, String waitingKey) {
        static final Verdict DONE = new Verdict(Handled.DONE, null);
        static final Verdict LATER = new Verdict(Handled.LATER, null);
    }

    Verdict handle(ConsumerRecord<String, byte[]> record) {
        if (!mine(record.key())) {
            return Verdict.DONE;
        }
        try {
            switch (record.topic()) {
                case "lahar.pod-intents" -> {
                    PodIntent intent = intents.deserialize(record.topic(), record.value());
                    if (intent != null) {
                        if (intent.getIntent() instanceof DeletePod delete) {
                            decisionReconciler.forget(intent.getNamespace(), delete.getPod());
                        }
                        if (intentReconciler.apply(intent) == PodIntentReconciler.Outcome.WAITING) {
                            return new Verdict(Handled.WAITING, PodIntentReconciler.waitingKey(intent));
                        }
                    }
                }
                case "lahar.scheduler-decisions" -> {
                    SchedulerDecision decision = decisions.deserialize(record.topic(), record.value());
                    if (decision != null) {
                        if (decisionReconciler.apply(decision) == DecisionReconciler.Outcome.WAITING) {
                            return new Verdict(Handled.WAITING, DecisionReconciler.waitingKey(decision));
                        }
                    }
                }
                case "lahar.pod-groups" -> podGroupReconciler.apply(record.key(),
                        record.value() == null ? null : podGroups.deserialize(record.topic(), record.value()));
                case "lahar.job-status" -> {
                    if (record.value() != null) {
                        statusWriter.apply(statuses.deserialize(record.topic(), record.value()));
                    }
                }
                // A tombstone follows the flow's deletion, by which time its CR is gone too.
                case "lahar.flow-status" -> {
                    if (record.value() != null) {
                        flowStatusWriter.apply(flowStatuses.deserialize(record.topic(), record.value()));
                    }
                }
                // Keyed by queue name: a bridge bound to one namespace skips them (Queues are cluster-scoped).
                case "lahar.queue-status" -> {
                    if (record.value() != null) {
                        queueStatusWriter.apply(queueStatuses.deserialize(record.topic(), record.value()));
                    }
                }
                case "lahar.command-results" -> {
                    if (record.value() != null) {
                        resultReporter.apply(results.deserialize(record.topic(), record.value()));
                    }
                }
                default -> throw new IllegalStateException("not subscribed to " + record.topic());
            }
        } catch (RuntimeException e) {
            if (Transients.isTransient(e)) {
                LOG.warnf("%s-%d@%d key %s: %s; will try again", record.topic(), record.partition(), record.offset(),
                        record.key(), DeadLetters.reason(e));
                return Verdict.LATER;
            }
            LOG.errorf("%s-%d@%d key %s: %s; sent to %s", record.topic(), record.partition(), record.offset(),
                    record.key(), DeadLetters.reason(e), Topics.DEAD_LETTERS.name());
            deadLetter(record, e);
        }
        return Verdict.DONE;
    }

    private void deadLetter(ConsumerRecord<String, byte[]> record, RuntimeException error) {
        sink.send(Topics.DEAD_LETTERS.name(), record.key(), DeadLetters.of(PROCESSOR, record, error));
    }

    /**
     * The topics the loop reads are keyed namespace/name (queue status: by the cluster-scoped
     * queue's name): a bridge bound to one namespace skips the others' records undecoded.
     */
    private boolean mine(String key) {
        return namespace.isEmpty() || (key != null && key.startsWith(namespace.get() + "/"));
    }

    @Override
    public void close() {
        running = false;
        consumer.wakeup();
    }
}
