package io.lahar.scheduler.loop;

import io.lahar.core.scheduling.api.Snapshot;
import io.lahar.core.scheduling.framework.Scheduler;
import io.lahar.core.scheduling.framework.SessionResult;
import io.lahar.scheduler.cache.SchedulerCache;
import io.lahar.schema.KafkaClients;
import io.lahar.schema.PollWatch;
import io.lahar.schema.QueueStatus;
import io.lahar.schema.SchedulerDecision;
import io.lahar.schema.Topics;
import io.lahar.schema.serde.CachingAvroSerializer;
import io.lahar.schema.serde.RegistrySerdes;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.jboss.logging.Logger;

/**
 * The scheduler's consume-transform-produce loop: one thread owns one {@link KafkaConsumer} and
 * one transactional {@link KafkaProducer}.
 *
 * <p>Why not SmallRye Reactive Messaging channels: a session must see every input at once (all
 * partitions of six topics), decide, and commit its decisions together with the input offsets it
 * decided on in one Kafka transaction ({@code sendOffsetsToTransaction}); and the cache it decides
 * on must never be touched by another thread. Channels split topics into independent streams
 * acknowledged one by one, which is the opposite. A plain loop on one thread keeps the cache
 * single-threaded and the transaction boundary explicit.
 *
 * <p>Life of an instance:
 * <ol>
 *   <li>{@code initTransactions()} with the deployment's fixed transactional id: the broker bumps the
 *   producer epoch, aborts whatever the previous instance left open and fences it (its next
 *   transactional call fails with {@link ProducerFencedException}, and it stops).</li>
 *   <li>Catch-up: assign every partition of the inputs and of its own decisions topic, read from the
 *   beginning (read_committed) up to the end offsets taken <em>after</em> fencing, and fold them into
 *   the cache. Those end offsets play the role of a marker read back from every input partition:
 *   nothing the predecessor committed can come after them, so no decision is taken on a view that
 *   misses a predecessor's binding.</li>
 *   <li>The epoch becomes one more than the highest epoch on any decision read; every decision
 *   carries it.</li>
 *   <li>Loop: poll, fold, run a session every period (sooner, at most every 50 ms, when an input
 *   changed), write decisions and dead letters with the consumed offsets in one transaction (the
 *   offsets alone at most once a period).</li>
 * </ol>
 *
 * <p>Each session also writes the changed queue statuses to {@code lahar.queue-status}.
 *
 * <p>The cache is rebuilt from the log on every start (Volcano rebuilds its cache from a full list
 * of the API server); the offsets committed in the transactions record progress for lag
 * monitoring. The loop assigns partitions rather than subscribing: it needs all of them, and its
 * single-writer guarantee comes from the transactional id, not from group membership, so static
 * membership and session timeouts do not apply. A transaction that fails for any other reason is
 * aborted and the cache rebuilt, so assumptions of the lost transaction never linger.
 */
public final class SchedulingLoop implements LoopSupervisor.Supervised {

    private static final Logger LOG = Logger.getLogger(SchedulingLoop.class);
    private static final Duration MIN_GAP = Duration.ofMillis(50);
    private static final Duration MAX_POLL = Duration.ofMillis(100);
    /** How long the input is first held after an outage of the registry; doubled while it lasts. */
    static final Duration FIRST_HOLD = Duration.ofSeconds(1);

    static final Duration MAX_HOLD = Duration.ofSeconds(30);
    public static final String PROCESSOR = "scheduler-service";

    /** Topics folded into the cache; the last two are the scheduler's own outputs, read back. */
    static final List<String> INPUTS = List.of(
            Topics.NODES.name(),
            Topics.QUEUES.name(),
            Topics.POD_GROUPS.name(),
            Topics.POD_INTENTS.name(),
            Topics.POD_EVENTS.name(),
            Topics.WORKLOAD_PODS.name(),
            Topics.PRIORITY_CLASSES.name(),
            Topics.SCHEDULER_DECISIONS.name(),
            Topics.QUEUE_STATUS.name());

    private final LoopSettings settings;
    private final Map<String, ?> tuning;
    private final SchedulerMetrics metrics;
    private final Clock clock;
    private final Scheduler scheduler;
    private final SchedulerInputs inputs;
    private final Serializer<SchedulerDecision> decisionSerializer;

    private volatile LoopState state = LoopState.NEW;
    private volatile boolean stopRequested;
    private volatile KafkaConsumer<String, byte[]> consumer;
    /** The loop's thread while it waits in {@code initTransactions()}, which no wake-up reaches. */
    private volatile Thread initializing;

    private volatile long epoch;
    private volatile String holding;
    /** Clock millis when it became active, and when it ended; 0 until then. */
    private volatile long activeSince;

    private volatile long endedAt;
    /** While the input is held: when to read it again (millis of the clock); 0 while it is read. */
    private long resumeAt;

    private Duration holdFor = FIRST_HOLD;
    private SchedulerCache cache;
    private QueueStatuses queueStatuses = new QueueStatuses();
    private final Serializer<QueueStatus> queueStatusSerializer;
    private long sessions;

    public SchedulingLoop(LoopSettings settings, SchedulerMetrics metrics, Clock clock) {
        this(settings, metrics, clock, Map.of());
    }

    /**
     * @param tuning client settings added to both clients' own: tests shorten the broker timeouts
     *               with it ({@link KafkaClients} passes connection settings only)
     */
    SchedulingLoop(LoopSettings settings, SchedulerMetrics metrics, Clock clock, Map<String, ?> tuning) {
        this.tuning = Map.copyOf(tuning);
        this.settings = settings;
        this.metrics = metrics;
        this.clock = clock;
        this.scheduler = new Scheduler(settings.conf());
        RegistrySerdes serdes = new RegistrySerdes(settings.registryUrl(), settings.registryCredentials());
        inputs = new SchedulerInputs(serdes);
        decisionSerializer = new CachingAvroSerializer<>(SchedulerDecision.class, serdes);
        queueStatusSerializer = serdes.value(QueueStatus.class).serializer();
    }

    /**
     * Why the loop's input is held — the schema registry does not answer, so records that need it
     * wait — or empty while it reads. Readiness reports it.
     */
    public Optional<String> holding() {
        return Optional.ofNullable(holding);
    }

    @Override
    public LoopState state() {
        return state;
    }

    /** The epoch of this instance's decisions (0 until it has caught up). */
    public long epoch() {
        return epoch;
    }

    @Override
    public Duration activeFor() {
        long since = activeSince;
        if (since == 0) return Duration.ZERO;
        long until = endedAt == 0 ? clock.millis() : endedAt;
        return Duration.ofMillis(Math.max(0, until - since));
    }

    /**
     * Its consumer's metrics, among them when it last polled ({@link io.lahar.schema.PollWatch}):
     * none before it has a consumer or once it has closed it.
     */
    public Map<MetricName, ? extends Metric> consumerMetrics() {
        KafkaConsumer<String, byte[]> c = consumer;
        if (c == null) return Map.of();
        try {
            return c.metrics();
        } catch (RuntimeException closing) {
            return Map.of();
        }
    }

    /**
     * The watch of the loops {@code current} gives one after another, each polling on the thread
     * named {@code thread} ({@link PollWatch}: not live once one has not polled for its limit).
     */
    public static PollWatch pollWatch(Supplier<Optional<SchedulingLoop>> current, String thread) {
        return new PollWatch(
                () -> current.get()
                        .<Map<MetricName, ? extends Metric>>map(SchedulingLoop::consumerMetrics)
                        .orElse(Map.of()),
                client -> thread,
                PollWatch::stackOf,
                PollWatch.WARN_AFTER,
                PollWatch.LIMIT);
    }

    /** Asks the loop to stop; it closes its clients and returns from {@link #run()}. */
    @Override
    public void stop() {
        stopRequested = true;
        KafkaConsumer<String, byte[]> c = consumer;
        if (c != null) c.wakeup();
        // With the broker away, initTransactions() waits out max.block.ms: longer than a service's
        // stop may take. An interrupt ends the wait; anything later is woken by the consumer's.
        Thread t = initializing;
        if (t != null) t.interrupt();
    }

    @Override
    public void run() {
        KafkaConsumer<String, byte[]> c = null;
        KafkaProducer<String, byte[]> producer = null;
        try {
            c = settings.kafka().consumer(consumerConfig(), new StringDeserializer(), new ByteArrayDeserializer());
            consumer = c;
            producer = settings.kafka().producer(producerConfig(), new StringSerializer(), new ByteArraySerializer());
            state = LoopState.CATCHING_UP;
            initializing = Thread.currentThread();
            if (stopRequested) throw new WakeupException();
            producer.initTransactions();
            initializing = null;
            List<TopicPartition> partitions = partitions(c);
            c.assign(partitions);
            List<ProducerRecord<String, byte[]>> pending = catchUp(c, partitions);
            epoch = cache.maxEpoch() + 1;
            metrics.epoch(epoch);
            activeSince = clock.millis();
            state = LoopState.ACTIVE;
            LOG.infof("scheduler %s active with epoch %d", settings.transactionalId(), epoch);
            loop(c, producer, partitions, pending);
            state = LoopState.STOPPED;
        } catch (WakeupException e) {
            state = LoopState.STOPPED;
        } catch (RuntimeException e) {
            if (fenced(e)) {
                state = LoopState.FENCED;
                LOG.warnf(
                        "scheduler %s epoch %d fenced by a newer instance; stopping",
                        settings.transactionalId(), epoch);
            } else if (stopRequested) {
                state = LoopState.STOPPED;
            } else {
                state = LoopState.FAILED;
                LOG.error("scheduling loop failed", e);
            }
        } finally {
            consumer = null;
            initializing = null;
            // A stop's interrupt is spent: the bounded closes below must not end early on it.
            if (stopRequested) Thread.interrupted();
            if (activeSince != 0) endedAt = clock.millis();
            // Bounded: a producer's own close() waits for its in-flight sends for ever, and after a
            // broker outage that held the stop and the restart of the loop for good.
            close(producer);
            close(c);
        }
    }

    private static void close(KafkaProducer<?, ?> producer) {
        try {
            KafkaClients.close(producer);
        } catch (RuntimeException e) {
            LOG.warn("closing the scheduler's producer failed", e);
        }
    }

    private static void close(KafkaConsumer<?, ?> consumer) {
        try {
            KafkaClients.close(consumer);
        } catch (RuntimeException e) {
            LOG.warn("closing the scheduler's consumer failed", e);
        }
    }

    private void loop(
            KafkaConsumer<String, byte[]> c,
            KafkaProducer<String, byte[]> producer,
            List<TopicPartition> partitions,
            List<ProducerRecord<String, byte[]>> pending) {
        long nextSession = clock.millis();
        long lastSession = 0;
        long lastCommit = clock.millis();
        boolean dirty = true;
        boolean consumed = false;
        List<ProducerRecord<String, byte[]>> out = new ArrayList<>(pending);
        while (!stopRequested) {
            long wait = Math.max(0, Math.min(nextSession - clock.millis(), MAX_POLL.toMillis()));
            ConsumerRecords<String, byte[]> records = c.poll(Duration.ofMillis(wait));
            dirty |= fold(c, records, out);
            consumed |= !records.isEmpty();
            long now = clock.millis();
            if (now >= nextSession || (dirty && now - lastSession >= MIN_GAP.toMillis())) {
                out.addAll(session());
                lastSession = now;
                nextSession = now + settings.period().toMillis();
                dirty = false;
            }
            // Input offsets alone are progress for lag monitoring (the cache is rebuilt from the
            // log on every start): commit them with the next decisions, or once a period. A
            // transaction per poll made the loop wait on the broker more than it decided
            // (docs/decisions/009-scheduler-work-follows-changes.md).
            boolean offsetsDue =
                    consumed && now - lastCommit >= settings.period().toMillis();
            if (out.isEmpty() && !offsetsDue) continue;
            try {
                producer.beginTransaction();
                for (ProducerRecord<String, byte[]> r : out) producer.send(r);
                if (consumed) producer.sendOffsetsToTransaction(positions(c, partitions), c.groupMetadata());
                producer.commitTransaction();
            } catch (KafkaException e) {
                if (fenced(e)) throw e;
                LOG.warn("transaction failed; aborting it and rebuilding the cache", e);
                producer.abortTransaction();
                out.clear();
                out.addAll(catchUp(c, partitions));
                consumed = false;
                continue;
            }
            out.clear();
            consumed = false;
            lastCommit = now;
        }
    }

    /** Reads every partition from the beginning up to its current end, folding into a new cache. */
    private List<ProducerRecord<String, byte[]>> catchUp(
            KafkaConsumer<String, byte[]> c, List<TopicPartition> partitions) {
        cache = new SchedulerCache(settings.schedulerNames(), settings.nodeSelector());
        queueStatuses = new QueueStatuses();
        inputs.deadLetteredBefore(committed(c, partitions));
        c.seekToBeginning(partitions);
        Map<TopicPartition, Long> end = c.endOffsets(partitions);
        List<ProducerRecord<String, byte[]>> deadLetters = new ArrayList<>();
        while (!stopRequested && !caughtUp(c, end)) {
            fold(c, c.poll(MAX_POLL), deadLetters);
        }
        if (stopRequested) throw new WakeupException();
        return deadLetters;
    }

    private static boolean caughtUp(KafkaConsumer<String, byte[]> c, Map<TopicPartition, Long> end) {
        for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
            if (c.position(e.getKey()) < e.getValue()) return false;
        }
        return true;
    }

    /**
     * Folds records into the cache ({@link SchedulerInputs}); true when an input (not a decision read
     * back) changed it. After an outage of the registry the records from the one that met it on are
     * read again later: the input is paused for a while that doubles as long as the outage lasts,
     * while sessions go on with what the cache holds.
     */
    private boolean fold(
            KafkaConsumer<String, byte[]> c,
            ConsumerRecords<String, byte[]> records,
            List<ProducerRecord<String, byte[]>> deadLetters) {
        SchedulerInputs.Fold fold = inputs.fold(records, this::apply);
        deadLetters.addAll(fold.deadLetters());
        long now = clock.millis();
        if (fold.outage() != null) {
            fold.held().forEach(c::seek);
            c.pause(c.assignment());
            holding = fold.outage();
            resumeAt = now + holdFor.toMillis();
            holdFor = holdFor.multipliedBy(2).compareTo(MAX_HOLD) > 0 ? MAX_HOLD : holdFor.multipliedBy(2);
        } else if (resumeAt != 0 && now >= resumeAt) {
            c.resume(c.paused());
            resumeAt = 0;
        } else if (resumeAt == 0 && !records.isEmpty()) {
            holding = null;
            holdFor = FIRST_HOLD;
        }
        return fold.changed();
    }

    private static Map<TopicPartition, Long> committed(
            KafkaConsumer<String, byte[]> c, List<TopicPartition> partitions) {
        Map<TopicPartition, Long> out = new HashMap<>();
        c.committed(Set.copyOf(partitions)).forEach((tp, offset) -> {
            if (offset != null) out.put(tp, offset.offset());
        });
        return out;
    }

    private boolean apply(String topic, String key, SpecificRecord value) {
        if (topic.equals(Topics.SCHEDULER_DECISIONS.name())) {
            SchedulerDecision d = (SchedulerDecision) value;
            // This instance's own decisions are in the cache since it took them; applying them
            // again on the way back could only roll a later status back to an earlier one.
            if (d != null && !(state == LoopState.ACTIVE && d.getEpoch() == epoch)) cache.onDecision(key, d);
            return false;
        }
        if (topic.equals(Topics.QUEUE_STATUS.name())) {
            // Read while catching up: what a predecessor wrote, so the next session writes only
            // changes and tombstones the queues deleted meanwhile. Once active, this instance is
            // the only writer and already knows what it wrote.
            if (state != LoopState.ACTIVE) {
                Map<String, QueueStatus> written = new HashMap<>();
                written.put(key, (QueueStatus) value);
                queueStatuses.written(written);
            }
            return false;
        }
        cache.onInput(topic, key, value);
        return true;
    }

    private List<ProducerRecord<String, byte[]>> session() {
        int unconfirmed = cache.unconfirmedBindings();
        metrics.unconfirmed(unconfirmed);
        if (unconfirmed >= settings.maxUnconfirmedBindings()) {
            // A slow or absent cluster backs pressure up here instead of piling up bindings.
            metrics.paused();
            return List.of();
        }
        long started = System.nanoTime();
        Instant now = clock.instant();
        Snapshot snapshot = cache.snapshot(now);
        SessionResult result = scheduler.schedule(snapshot);
        String session = epoch + "-" + (++sessions);
        SessionDecisions.Outcome outcome = SessionDecisions.apply(cache, snapshot, result, epoch, session, now);
        metrics.session(
                Duration.ofNanos(System.nanoTime() - started),
                outcome.placements(),
                outcome.evictions(),
                outcome.pendingByReason());
        metrics.unconfirmed(cache.unconfirmedBindings());
        String topic = Topics.SCHEDULER_DECISIONS.name();
        List<ProducerRecord<String, byte[]>> out = new ArrayList<>();
        for (SchedulerDecision d : outcome.decisions()) {
            out.add(new ProducerRecord<>(
                    topic, Topics.jobKey(d.getNamespace(), d.getJob()), decisionSerializer.serialize(topic, d)));
        }
        String queueTopic = Topics.QUEUE_STATUS.name();
        Map<String, QueueStatus> queues = queueStatuses.changes(snapshot, result, outcome.entered(), now);
        queues.forEach((name, status) -> out.add(new ProducerRecord<>(
                queueTopic, name, status == null ? null : queueStatusSerializer.serialize(queueTopic, status))));
        // Assumed written: a failed transaction rebuilds everything, these included.
        queueStatuses.written(queues);
        return out;
    }

    private static boolean fenced(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof ProducerFencedException || t instanceof InvalidProducerEpochException) return true;
        }
        return false;
    }

    private static Map<TopicPartition, OffsetAndMetadata> positions(
            KafkaConsumer<String, byte[]> c, List<TopicPartition> partitions) {
        Map<TopicPartition, OffsetAndMetadata> out = new HashMap<>();
        for (TopicPartition tp : partitions) out.put(tp, new OffsetAndMetadata(c.position(tp)));
        return out;
    }

    private static List<TopicPartition> partitions(KafkaConsumer<String, byte[]> c) {
        List<TopicPartition> out = new ArrayList<>();
        for (String topic : INPUTS) {
            List<PartitionInfo> infos = c.partitionsFor(topic, Duration.ofSeconds(60));
            if (infos == null || infos.isEmpty()) throw new IllegalStateException("topic " + topic + " does not exist");
            for (PartitionInfo p : infos) out.add(new TopicPartition(topic, p.partition()));
        }
        return out;
    }

    private Map<String, Object> consumerConfig() {
        Map<String, Object> config = new HashMap<>();
        config.put(ConsumerConfig.GROUP_ID_CONFIG, settings.groupId());
        config.put(ConsumerConfig.CLIENT_ID_CONFIG, settings.transactionalId() + "-consumer");
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.putAll(tuning);
        return config;
    }

    private Map<String, Object> producerConfig() {
        Map<String, Object> config = new HashMap<>();
        config.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, settings.transactionalId());
        config.put(ProducerConfig.CLIENT_ID_CONFIG, settings.transactionalId() + "-producer");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, (int)
                settings.transactionTimeout().toMillis());
        config.putAll(tuning);
        return config;
    }
}
