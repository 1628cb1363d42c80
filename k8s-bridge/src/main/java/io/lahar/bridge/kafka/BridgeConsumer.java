package io.lahar.bridge.kafka;

import io.lahar.bridge.reconcile.CommandResultReporter;
import io.lahar.bridge.reconcile.CronJobStatusWriter;
import io.lahar.bridge.reconcile.DecisionReconciler;
import io.lahar.bridge.reconcile.FlowStatusWriter;
import io.lahar.bridge.reconcile.JobStatusWriter;
import io.lahar.bridge.reconcile.PodGroupReconciler;
import io.lahar.bridge.reconcile.PodIntentReconciler;
import io.lahar.bridge.reconcile.QueueStatusWriter;
import io.lahar.bridge.reconcile.RecordSink;
import io.lahar.schema.CommandResult;
import io.lahar.schema.CronJobStatusRecord;
import io.lahar.schema.DeadLetter;
import io.lahar.schema.DeletePod;
import io.lahar.schema.JobFlowStatusRecord;
import io.lahar.schema.JobStatusRecord;
import io.lahar.schema.JobTemplate;
import io.lahar.schema.KafkaClients;
import io.lahar.schema.PodGroup;
import io.lahar.schema.PodIntent;
import io.lahar.schema.Queue;
import io.lahar.schema.QueueStatus;
import io.lahar.schema.SchedulerDecision;
import io.lahar.schema.Topics;
import io.lahar.schema.deadletter.DeadLetters;
import io.lahar.schema.deadletter.InputRecords;
import io.lahar.schema.serde.RegistrySerdes;
import io.micrometer.core.instrument.Metrics;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.jboss.logging.Logger;

/**
 * The bridge's input loop: pod intents, scheduler decisions, pod groups, job, flow, CronJob and queue status
 * and command results (for commands from Volcano CRs), read with a
 * plain consumer, decoded here and handed to the reconcilers in {@link CallLanes}: one lane per
 * object (a pod's create, bind and delete in the order they were read), many lanes at once, so the
 * loop does not wait for each call to the cluster before the next; at most {@link #MAX_IN_FLIGHT}
 * records are in the lanes, and the loop stops fetching while what it read waits for room there
 * ({@link Backlog}, the scheduler's decisions first). Offsets are
 * committed once a record's work is done (at least once: every reconciler is idempotent), never past
 * a record still in its lane; a bind
 * or create that waits in memory holds its partition's offset, so a restart reads it again rather
 * than losing it ({@link OffsetLedger}), and a look-ahead for deletions keeps the re-read creates
 * from resurrecting pods ({@link DeletionLookahead}). A record
 * that cannot be decoded or reconciled goes to the dead-letter topic and the loop goes on; one that
 * cannot be decoded because the registry is unreachable stays, with the rest of its partition, and
 * is read again after a pause (1 s doubling to 30 s); one whose calls failed because the cluster is
 * unreachable is tried again in its lane after the same pauses, holding that lane and its offset.
 * Between polls, the binds and creates that wait for a pod to appear or go are retried, each in its
 * pod's lane.
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
    /**
     * How often every waiting bind is tried, also those whose pod this bridge has not created (made
     * before a restart, or by another bridge); a bind whose pod it creates is carried out right
     * after the create, in that pod's lane.
     */
    static final Duration SWEEP_INTERVAL = Duration.ofSeconds(10);

    /**
     * How often the offsets of finished records are committed. A commit is a round trip to the
     * group's coordinator that holds this loop; made after every poll that finished something, it
     * ran tens of times a second under load. A bridge that dies re-reads at most this much more
     * (every reconciler is idempotent); leaving partitions and stopping still commit at once.
     */
    static final Duration COMMIT_INTERVAL = Duration.ofMillis(100);

    static final Duration PAUSE_FIRST = Duration.ofSeconds(1);
    static final Duration PAUSE_MAX = Duration.ofSeconds(30);
    /**
     * Records in the lanes at once: enough calls under way to keep the API busy, few enough that the
     * client keeps reusing its connections (each lane's call may open one; a TLS handshake per
     * connection is what the emulated API was slowest at when hundreds of lanes each opened one).
     */
    static final int MAX_IN_FLIGHT = 32;
    /** CR writes under way at once beside the lanes' calls (each may hold a connection, as a lane's call does). */
    static final int MAX_CR_WRITES = 8;
    /**
     * How long the group waits for a member that stopped heartbeating before its partitions go to
     * another (the client's default is 45 s): a bridge killed and started again reads on after this
     * rather than three quarters of a minute later. Heartbeats come from the client's own thread, so
     * only a stall of the whole process this long costs a rebalance, and a rebalance costs re-reads
     * (every reconciler is idempotent), never records.
     */
    static final Duration SESSION_TIMEOUT = Duration.ofSeconds(10);
    /** A third of the session, as Kafka advises: two heartbeats may be lost before the member is. */
    static final Duration HEARTBEAT_INTERVAL = Duration.ofSeconds(3);
    /** How long a member leaving partitions, or stopping, waits for their records' calls to complete. */
    static final Duration SETTLE_TIMEOUT = Duration.ofSeconds(10);

    static final List<String> TOPICS = List.of(
            Topics.POD_INTENTS.name(),
            Topics.SCHEDULER_DECISIONS.name(),
            Topics.POD_GROUPS.name(),
            Topics.JOB_STATUS.name(),
            Topics.COMMAND_RESULTS.name(),
            Topics.FLOW_STATUS.name(),
            Topics.QUEUE_STATUS.name(),
            Topics.CRONJOB_STATUS.name(),
            Topics.QUEUES.name(),
            Topics.JOB_TEMPLATES.name());

    private final KafkaConsumer<String, byte[]> consumer;
    /** An input topic and the reader of its values. */
    private record Input(Topics.TopicSpec topic, Deserializer<? extends SpecificRecord> values) {}

    private final Map<String, Input> inputs = new HashMap<>();
    private final PodIntentReconciler intentReconciler;
    private final DecisionReconciler decisionReconciler;
    private final PodGroupReconciler podGroupReconciler;
    private final JobStatusWriter statusWriter;
    private final FlowStatusWriter flowStatusWriter;
    private final CronJobStatusWriter cronJobStatusWriter;
    private final QueueStatusWriter queueStatusWriter;
    private final CommandResultReporter resultReporter;
    private final RecordSink sink;
    private final Optional<String> namespace;
    private final OffsetLedger ledger = new OffsetLedger();
    private final CallLanes lanes = new CallLanes(MAX_IN_FLIGHT);
    /** Job CR writes, one per job at a time, the records read meanwhile folded (decision 049). */
    private final LatestWins<JobStatusWriter.Change> jobWrites;
    /** Lanes retrying a record whose calls failed for a passing reason. */
    private final java.util.concurrent.atomic.AtomicInteger retrying = new java.util.concurrent.atomic.AtomicInteger();
    /** Records read and not yet handed to the lanes, which were full; decisions go first. */
    private final Backlog backlog = new Backlog(Topics.SCHEDULER_DECISIONS.name());
    /** Whether the loop stopped fetching because records wait in the backlog. */
    private boolean paused;

    private final DeletionLookahead lookahead;
    private volatile boolean running = true;
    private volatile String holding;
    private long lastRetry = System.nanoTime();
    private long lastCommit = System.nanoTime();
    private long lastSweep = System.nanoTime();

    public BridgeConsumer(
            KafkaClients kafka,
            RegistrySerdes serdes,
            String groupId,
            PodIntentReconciler intentReconciler,
            DecisionReconciler decisionReconciler,
            PodGroupReconciler podGroupReconciler,
            JobStatusWriter statusWriter,
            FlowStatusWriter flowStatusWriter,
            CronJobStatusWriter cronJobStatusWriter,
            QueueStatusWriter queueStatusWriter,
            CommandResultReporter resultReporter,
            RecordSink sink,
            Optional<String> namespace) {
        this.namespace = namespace;
        Map<String, Object> props = new HashMap<>();
        props.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 200);
        props.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, (int) SESSION_TIMEOUT.toMillis());
        props.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, (int) HEARTBEAT_INTERVAL.toMillis());
        this.consumer = kafka.consumer(props, new StringDeserializer(), new ByteArrayDeserializer());
        Deserializer<PodIntent> intents = serdes.value(PodIntent.class).deserializer();
        this.lookahead = new DeletionLookahead(kafka, props, intents, namespace);
        add(Topics.POD_INTENTS, intents);
        add(Topics.SCHEDULER_DECISIONS, serdes.value(SchedulerDecision.class).deserializer());
        add(Topics.POD_GROUPS, serdes.value(PodGroup.class).deserializer());
        add(Topics.JOB_STATUS, serdes.value(JobStatusRecord.class).deserializer());
        add(Topics.COMMAND_RESULTS, serdes.value(CommandResult.class).deserializer());
        add(Topics.FLOW_STATUS, serdes.value(JobFlowStatusRecord.class).deserializer());
        add(Topics.CRONJOB_STATUS, serdes.value(CronJobStatusRecord.class).deserializer());
        add(Topics.QUEUE_STATUS, serdes.value(QueueStatus.class).deserializer());
        add(Topics.QUEUES, serdes.value(Queue.class).deserializer());
        add(Topics.JOB_TEMPLATES, serdes.value(JobTemplate.class).deserializer());
        this.intentReconciler = intentReconciler;
        this.decisionReconciler = decisionReconciler;
        this.podGroupReconciler = podGroupReconciler;
        this.statusWriter = statusWriter;
        this.jobWrites = new LatestWins<>(
                statusWriter::write,
                JobStatusWriter.Change::then,
                new WriteFailure(),
                MAX_CR_WRITES,
                PAUSE_FIRST,
                PAUSE_MAX);
        this.flowStatusWriter = flowStatusWriter;
        this.cronJobStatusWriter = cronJobStatusWriter;
        this.queueStatusWriter = queueStatusWriter;
        this.resultReporter = resultReporter;
        this.sink = sink;
    }

    private void add(Topics.TopicSpec topic, Deserializer<? extends SpecificRecord> values) {
        inputs.put(topic.name(), new Input(topic, values));
    }

    @Override
    public void run() {
        Duration pause = PAUSE_FIRST;
        try {
            consumer.subscribe(TOPICS, new Rebalance());
            while (running) {
                lanes.drain(this::settled);
                var records = consumer.poll(paused ? Duration.ZERO : Duration.ofMillis(250));
                backlog.addAll(records);
                boolean later = false;
                while (!backlog.isEmpty() && !lanes.full()) {
                    ConsumerRecord<String, byte[]> record = backlog.take();
                    TopicPartition partition = new TopicPartition(record.topic(), record.partition());
                    Decoded decoded = decode(record);
                    if (decoded.verdict() == Verdict.LATER) {
                        // The registry is away for every record: all go back, in order, for a later poll.
                        backlog.clear().forEach(consumer::seek);
                        consumer.seek(partition, record.offset());
                        later = true;
                    } else if (decoded.verdict() != null) {
                        ledger.handled(partition, record.offset());
                    } else {
                        ledger.started(partition, record.offset());
                        lanes.submit(
                                RecordLane.of(record, decoded.value()),
                                RecordLane.after(record, decoded.value()),
                                partition,
                                record.offset(),
                                () -> reconcileRetrying(record, decoded.value()));
                    }
                }
                if (later) {
                    sleep(pause);
                    pause = pause.multipliedBy(2).compareTo(PAUSE_MAX) > 0 ? PAUSE_MAX : pause.multipliedBy(2);
                } else if (!records.isEmpty()) {
                    pause = PAUSE_FIRST;
                    if (retrying.get() == 0) {
                        holding = null;
                    }
                }
                throttle();
                // Waiting work is a GET per item: often enough to follow a pod's appearance, no busier.
                if (System.nanoTime() - lastRetry >= RETRY_INTERVAL.toNanos()) {
                    retryPending();
                    lastRetry = System.nanoTime();
                }
                lanes.drain(this::settled);
                if (System.nanoTime() - lastCommit >= COMMIT_INTERVAL.toNanos()) {
                    tolerateRebalance(this::commit);
                    lastCommit = System.nanoTime();
                }
            }
        } catch (WakeupException e) {
            if (running) {
                throw e;
            }
        } finally {
            running = false;
            lanes.settle(SETTLE_TIMEOUT, this::settled);
            jobWrites.settle(SETTLE_TIMEOUT);
            try {
                commit();
            } catch (RuntimeException e) {
                LOG.warnf("last commit failed (the records after it will be read again): %s", e.getMessage());
            }
            lanes.close();
            jobWrites.close();
            KafkaClients.close(consumer);
        }
    }

    /**
     * Stops fetching while records wait in the backlog for room in the lanes (the partitions paused,
     * still members of the group), waiting for outcomes instead of polling, and fetches again once
     * the backlog is empty.
     */
    private void throttle() {
        if (!backlog.isEmpty()) {
            // All of them, at every turn: a partition assigned meanwhile comes unpaused, and would
            // fill the backlog past one poll.
            consumer.pause(consumer.assignment());
            paused = true;
            if (lanes.full()) {
                lanes.await(Duration.ofMillis(100), this::settled);
            }
        } else if (paused) {
            consumer.resume(consumer.paused());
            paused = false;
        }
    }

    /** A record's outcome from its lane, entered in the ledger if this member still reads its partition. */
    private void settled(CallLanes.Done done) {
        if (!ledger.owns(done.partition()) || done.verdict().handled() == Handled.LATER) {
            // LATER only when the loop stops: the record stays under way, uncommitted, and is read again.
            return;
        }
        ledger.finished(done.partition(), done.offset());
        if (done.verdict().handled() == Handled.WAITING) {
            ledger.hold(done.partition(), done.verdict().waitingKey(), done.offset());
        }
    }

    /** Reconciles in a lane: a passing failure is tried again there, after a pause, until the loop stops. */
    private Verdict reconcileRetrying(ConsumerRecord<String, byte[]> record, SpecificRecord value) {
        Duration pause = PAUSE_FIRST;
        boolean counted = false;
        try {
            while (true) {
                Verdict verdict = count(record, reconcile(record, value));
                if (verdict.handled() != Handled.LATER || !running) {
                    return verdict;
                }
                if (!counted) {
                    retrying.incrementAndGet();
                    counted = true;
                }
                sleep(pause);
                pause = pause.multipliedBy(2).compareTo(PAUSE_MAX) > 0 ? PAUSE_MAX : pause.multipliedBy(2);
            }
        } finally {
            if (counted) {
                retrying.decrementAndGet();
            }
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

    /**
     * Runs a commit, which the group refuses while it rebalances (this member was taken for dead
     * after a stall, or another joined): the next poll rejoins, and whoever reads the partitions
     * then reads again from the last commit that went through. The loop goes on rather than dying.
     */
    static void tolerateRebalance(Runnable commit) {
        try {
            commit.run();
        } catch (CommitFailedException | RebalanceInProgressException e) {
            LOG.warnf(
                    "commit refused while the group rebalances (the records after the last commit are read again): %s",
                    e.getMessage());
        }
    }

    private boolean stillWaiting(String topic, String key) {
        return switch (topic) {
            case "lahar.pod-intents" -> intentReconciler.isWaiting(key);
            case "lahar.scheduler-decisions" -> decisionReconciler.isWaiting(key);
            case "lahar.job-status" -> jobWrites.pending(key);
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
            lanes.settle(SETTLE_TIMEOUT, BridgeConsumer.this::settled);
            jobWrites.settle(SETTLE_TIMEOUT);
            try {
                commit();
            } catch (RuntimeException e) {
                LOG.warnf("commit on revocation failed (the records after it will be read again): %s", e.getMessage());
            }
            ledger.forget(partitions);
            backlog.forget(partitions);
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> partitions) {
            ledger.forget(partitions);
            backlog.forget(partitions);
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

    /** Each waiting create or bind is retried in its pod's lane (unless work for that pod is queued there). */
    private void retryPending() {
        for (String key : intentReconciler.waitingKeys()) {
            lanes.offer(RecordLane.pod(key), () -> intentReconciler.retry(key));
        }
        boolean sweep = System.nanoTime() - lastSweep >= SWEEP_INTERVAL.toNanos();
        if (sweep) {
            lastSweep = System.nanoTime();
        }
        if (sweep) {
            for (String key : decisionReconciler.waitingKeys()) {
                lanes.offer(RecordLane.pod(key), () -> decisionReconciler.sweep(key));
            }
        } else {
            for (String key : decisionReconciler.waitingKeysCreated()) {
                lanes.offer(RecordLane.pod(key), () -> decisionReconciler.retry(key));
            }
        }
    }

    /**
     * What became of a record: done (reconciled, skipped or dead-lettered), done but with work
     * waiting in memory (its offset is held until the work is done), or to be tried again later.
     */
    enum Handled {
        DONE,
        WAITING,
        LATER
    }

    /** @param waitingKey the reconciler's key of the waiting work, with {@link Handled#WAITING} */
    record Verdict(Handled handled, String waitingKey) {
        static final Verdict DONE = new Verdict(Handled.DONE, null);
        static final Verdict LATER = new Verdict(Handled.LATER, null);
    }

    /**
     * Handles one record, held to the input rules of every Lahar consumer ({@link InputRecords}): a
     * record without a key, a tombstone on a topic that has none (pod intents, decisions, command
     * results), a value that does not decode as the topic's record type, or a key other than the
     * record's own object is dead-lettered with the reason and changes nothing in the cluster.
     */
    Verdict handle(ConsumerRecord<String, byte[]> record) {
        Decoded decoded = decode(record);
        return decoded.verdict() != null ? decoded.verdict() : count(record, reconcile(record, decoded.value()));
    }

    /** A record decoded (verdict null), or what became of it if it cannot be reconciled now or ever. */
    record Decoded(Verdict verdict, SpecificRecord value) {}

    /** Decodes a record on the loop (its lane depends on what it says); a record it cannot decode is done with here. */
    Decoded decode(ConsumerRecord<String, byte[]> record) {
        // A keyless record is no namespace's: every bridge reports it.
        if (record.key() != null && !record.key().isEmpty() && !mine(record.key())) {
            return new Decoded(count(record, Verdict.DONE), null);
        }
        try {
            Input input = inputs.get(record.topic());
            if (input == null) {
                throw new IllegalStateException("not subscribed to " + record.topic());
            }
            return new Decoded(null, InputRecords.read(input.topic(), record.key(), record.value(), input.values()));
        } catch (RuntimeException e) {
            return new Decoded(count(record, failed(record, e)), null);
        }
    }

    private static Verdict count(ConsumerRecord<String, byte[]> record, Verdict verdict) {
        // Quarkus serves Micrometer's global registry at /q/metrics (docs/metrics.md).
        Metrics.counter(
                        "lahar.bridge.reconcile",
                        "topic",
                        record.topic(),
                        "outcome",
                        verdict.handled().name().toLowerCase(java.util.Locale.ROOT))
                .increment();
        return verdict;
    }

    private Verdict reconcile(ConsumerRecord<String, byte[]> record, SpecificRecord value) {
        try {
            switch (value) {
                case PodIntent intent -> {
                    if (intent.getIntent() instanceof DeletePod delete) {
                        decisionReconciler.forget(intent.getNamespace(), delete.getPod());
                    }
                    PodIntentReconciler.Outcome outcome = intentReconciler.apply(intent);
                    if (outcome == PodIntentReconciler.Outcome.WAITING) {
                        return new Verdict(Handled.WAITING, PodIntentReconciler.waitingKey(intent));
                    }
                    if (outcome == PodIntentReconciler.Outcome.CREATED
                            || outcome == PodIntentReconciler.Outcome.EXISTS) {
                        // A bind that came first is carried out now, in this pod's lane, not at the next retry.
                        decisionReconciler.retry(PodIntentReconciler.waitingKey(intent));
                    }
                }
                case SchedulerDecision decision -> {
                    if (decisionReconciler.apply(decision) == DecisionReconciler.Outcome.WAITING) {
                        return new Verdict(Handled.WAITING, DecisionReconciler.waitingKey(decision));
                    }
                }
                case PodGroup group -> podGroupReconciler.apply(record.key(), group);
                case JobStatusRecord status -> {
                    return writeJob(record, JobStatusWriter.Change.of(status));
                }
                case JobFlowStatusRecord status -> flowStatusWriter.apply(status);
                case CronJobStatusRecord status -> cronJobStatusWriter.apply(status);
                // Keyed by queue name: a bridge bound to one namespace skips them (Queues are cluster-scoped).
                case QueueStatus status -> queueStatusWriter.apply(status);
                case Queue queue -> queueStatusWriter.apply(queue);
                case JobTemplate template -> flowStatusWriter.apply(template);
                case CommandResult result -> resultReporter.apply(result);
                // A tombstone: the object is gone, and so goes its CR (a CronJob's and a queue
                // status's follow the deletion of a CR that is gone already).
                case null -> {
                    if (record.topic().equals(Topics.JOB_STATUS.name())) {
                        podGroupReconciler.jobDeleted(record.key());
                        return writeJob(record, JobStatusWriter.Change.deletion());
                    }
                    tombstone(record);
                }
                default ->
                    throw new IllegalStateException(
                            "no reconciler for " + value.getClass().getName());
            }
        } catch (RuntimeException e) {
            return failed(record, e);
        }
        return Verdict.DONE;
    }

    private void tombstone(ConsumerRecord<String, byte[]> record) {
        switch (record.topic()) {
            case "lahar.pod-groups" -> podGroupReconciler.apply(record.key(), null);
            case "lahar.flow-status" -> flowStatusWriter.deleted(record.key());
            case "lahar.job-templates" -> flowStatusWriter.templateDeleted(record.key());
            case "lahar.queues" -> queueStatusWriter.deleted(record.key());
            default -> {}
        }
    }

    /** Hands a job's CR write to {@link #jobWrites}: the record's offset is held until it is written. */
    private Verdict writeJob(ConsumerRecord<String, byte[]> record, JobStatusWriter.Change change) {
        jobWrites.offer(record.key(), change, record);
        return new Verdict(Handled.WAITING, record.key());
    }

    /** A job CR write that failed: dead-lettered with the latest record it stood for, or retried. */
    private final class WriteFailure implements LatestWins.Failure {
        @Override
        public boolean failed(ConsumerRecord<String, byte[]> latest, RuntimeException error) {
            return count(latest, BridgeConsumer.this.failed(latest, error)).handled() == Handled.DONE;
        }

        @Override
        public void retrying(String key, RuntimeException error) {
            holding = DeadLetters.reason(error);
            LOG.warnf("job %s: its CR not written (%s); will try again", key, holding);
        }
    }

    /** A passing failure puts the record off; any other sends it to the dead letters. */
    private Verdict failed(ConsumerRecord<String, byte[]> record, RuntimeException e) {
        boolean transientError = Transients.isTransient(e);
        Metrics.counter(
                        "lahar.bridge.reconcile.errors",
                        "topic",
                        record.topic(),
                        "kind",
                        transientError ? "transient" : "dead-lettered")
                .increment();
        if (transientError) {
            holding = DeadLetters.reason(e);
            LOG.warnf(
                    "%s key %s: %s; will try again",
                    DeadLetters.where(record.topic(), record.partition(), record.offset()), record.key(), holding);
            return Verdict.LATER;
        }
        try {
            deadLetter(record, e);
        } catch (RuntimeException unsent) {
            if (!Transients.isTransient(unsent)) {
                throw unsent;
            }
            holding = DeadLetters.reason(unsent);
            return Verdict.LATER;
        }
        return Verdict.DONE;
    }

    /** The input consumer's metrics, among them when it last polled ({@link io.lahar.schema.PollWatch}). */
    public Map<MetricName, ? extends Metric> metrics() {
        return consumer.metrics();
    }

    /** Why the loop puts records off (the cluster or the schema registry does not answer), or empty while it reads. */
    public Optional<String> holding() {
        return Optional.ofNullable(holding);
    }

    /** A letter that cannot be sent for a transient cause puts its record off like any outage. */
    private void deadLetter(ConsumerRecord<String, byte[]> record, RuntimeException error) {
        DeadLetter letter = DeadLetters.of(PROCESSOR, record, error);
        LOG.error(DeadLetters.describe(letter));
        sink.send(Topics.DEAD_LETTERS.name(), record.key(), letter);
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
