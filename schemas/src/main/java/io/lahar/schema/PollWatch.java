package io.lahar.schema;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;

/**
 * Whether the threads that own a service's Kafka consumers still poll, from each consumer's own
 * metric {@code last-poll-seconds-ago}. Such a thread polls between every batch of records it works
 * through; one held in anything (a call that never returns, a lock never released) says nothing,
 * and neither Kafka nor the thread does anything about it: past the consumer's
 * {@code max.poll.interval.ms} the consumer leaves its group, and what it owned is processed by
 * nobody while the process looks alive.
 *
 * <p>Here such a thread is named with what it is doing (its stack) once it has not polled for
 * {@code warnAfter}, again once past {@code limit}, when the service is no longer live (its
 * supervisor, Kubernetes' liveness probe or bin/start's, restarts it: the only way out of a call
 * that never returns), and when it polls again. {@code limit} is the consumer's
 * {@code max.poll.interval.ms}: before it a slow call is not a fault
 * (docs/decisions/072-held-threads-are-not-live.md).
 */
public final class PollWatch {

    /** The consumer metric (Kafka's {@code KafkaConsumerMetrics}): whole seconds since poll() last returned, -1 before the first. */
    static final String LAST_POLL = "last-poll-seconds-ago";

    static final String CONSUMER_METRICS = "consumer-metrics";
    /** The frames of a held thread logged: enough to see the call it is held in and who made it. */
    static final int STACK_DEPTH = 60;
    /** How often {@link #watch} looks. */
    public static final Duration PERIOD = Duration.ofSeconds(10);
    /** A thread held this long is logged with its stack. */
    public static final Duration WARN_AFTER = Duration.ofSeconds(60);
    /** Kafka's default {@code max.poll.interval.ms}, which Lahar's consumers keep. */
    public static final Duration LIMIT = Duration.ofMinutes(5);

    private static final System.Logger LOG = System.getLogger(PollWatch.class.getName());

    /** A running {@link #watch}; closing it stops it. */
    public interface Watching extends AutoCloseable {
        @Override
        void close();
    }

    /** What {@link #check} found worth saying. */
    public record Notice(System.Logger.Level level, String message) {}

    private final Supplier<Map<MetricName, ? extends Metric>> metrics;
    private final Function<String, String> threadOf;
    private final Function<String, String> stackOf;
    private final long warnAfter;
    private final long limit;
    /** The threads held at the last check, and how far each was reported: 1 past warnAfter, 2 past the limit. */
    private final Map<String, Integer> reported = new HashMap<>();

    /**
     * @param metrics  the metrics the consumers are among ({@code KafkaStreams::metrics},
     *                 {@code KafkaConsumer::metrics})
     * @param threadOf the name of the thread that polls the consumer of this client id, or null for
     *                 a consumer not watched (one polled only now and then)
     * @param stackOf  what a thread of that name is doing ({@link #stackOf(String)})
     */
    public PollWatch(
            Supplier<Map<MetricName, ? extends Metric>> metrics,
            Function<String, String> threadOf,
            Function<String, String> stackOf,
            Duration warnAfter,
            Duration limit) {
        if (warnAfter.isNegative() || warnAfter.isZero() || limit.compareTo(warnAfter) < 0) {
            throw new IllegalArgumentException(
                    "need 0 < warnAfter <= limit, got warnAfter " + warnAfter + " and limit " + limit);
        }
        this.metrics = metrics;
        this.threadOf = threadOf;
        this.stackOf = stackOf;
        this.warnAfter = warnAfter.toSeconds();
        this.limit = limit.toSeconds();
    }

    /** Seconds since each watched thread last polled, by thread name; a consumer never polled yet is left out. */
    public Map<String, Long> sincePoll() {
        Map<String, Long> since = new HashMap<>();
        for (Map.Entry<MetricName, ? extends Metric> e : metrics.get().entrySet()) {
            MetricName name = e.getKey();
            if (!LAST_POLL.equals(name.name()) || !CONSUMER_METRICS.equals(name.group())) {
                continue;
            }
            String client = name.tags().get("client-id");
            String thread = client == null ? null : threadOf.apply(client);
            if (thread != null && e.getValue().metricValue() instanceof Number seconds && seconds.doubleValue() >= 0) {
                since.merge(thread, seconds.longValue(), Math::max);
            }
        }
        return since;
    }

    /** Live while no watched thread has gone {@code limit} without polling. */
    public boolean live() {
        return sincePoll().values().stream().allMatch(s -> s < limit);
    }

    /** Looks at every watched thread once (called periodically): what is new since the last look. */
    public synchronized List<Notice> check() {
        Map<String, Long> since = sincePoll();
        List<Notice> notices = new ArrayList<>();
        for (Map.Entry<String, Long> e : since.entrySet()) {
            String thread = e.getKey();
            long seconds = e.getValue();
            int was = reported.getOrDefault(thread, 0);
            if (seconds >= limit && was < 2) {
                reported.put(thread, 2);
                notices.add(new Notice(
                        System.Logger.Level.ERROR,
                        "thread %s has not polled Kafka for %d s, past max.poll.interval.ms (%d s): its consumer has"
                                        .formatted(thread, seconds, limit)
                                + " left the group and what it owned is not processed; the service is no longer live, for"
                                + " its supervisor to restart it. It is in:\n" + stackOf.apply(thread)));
            } else if (seconds >= warnAfter && was < 1) {
                reported.put(thread, 1);
                notices.add(new Notice(
                        System.Logger.Level.WARNING,
                        "thread %s has not polled Kafka for %d s (it polls between batches of records: it is held in"
                                        .formatted(thread, seconds)
                                + " one); past %d s the service is no longer live. It is in:\n".formatted(limit)
                                + stackOf.apply(thread)));
            } else if (seconds < warnAfter && was > 0) {
                reported.remove(thread);
                notices.add(new Notice(System.Logger.Level.INFO, "thread " + thread + " polls Kafka again"));
            }
        }
        // A thread gone (replaced, or its consumer closed) is no longer held.
        reported.keySet().retainAll(since.keySet());
        return notices;
    }

    /**
     * Logs what {@link #check} finds every {@link #PERIOD} on a daemon thread {@code name}, until the
     * returned handle is closed.
     */
    public Watching watch(String name) {
        ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
        executor.scheduleWithFixedDelay(
                () -> {
                    try {
                        for (Notice notice : check()) {
                            LOG.log(notice.level(), "{0}", notice.message());
                        }
                    } catch (RuntimeException e) {
                        // The watch must outlive a bad look (the metrics of a client closing, say).
                        LOG.log(System.Logger.Level.WARNING, "{0}", "could not look at the consumers' polls: " + e);
                    }
                },
                PERIOD.toMillis(),
                PERIOD.toMillis(),
                TimeUnit.MILLISECONDS);
        return executor::shutdownNow;
    }

    /** The stack of the live thread named {@code name}, {@value #STACK_DEPTH} frames at most, one per line. */
    public static String stackOf(String name) {
        for (Map.Entry<Thread, StackTraceElement[]> e :
                Thread.getAllStackTraces().entrySet()) {
            if (e.getKey().getName().equals(name)) {
                StringBuilder out =
                        new StringBuilder("  (").append(e.getKey().getState()).append(')');
                StackTraceElement[] frames = e.getValue();
                for (int i = 0; i < Math.min(frames.length, STACK_DEPTH); i++) {
                    out.append("\n\tat ").append(frames[i]);
                }
                if (frames.length > STACK_DEPTH) {
                    out.append("\n\t... ").append(frames.length - STACK_DEPTH).append(" more");
                }
                return out.toString();
            }
        }
        return "  (no thread of that name runs)";
    }
}
