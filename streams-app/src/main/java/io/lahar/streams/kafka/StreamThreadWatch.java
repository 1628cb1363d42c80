package io.lahar.streams.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;

/**
 * Whether each stream thread still polls, from its main consumer's own metric
 * {@code last-poll-seconds-ago}. A stream thread polls between every batch of records it
 * processes, every punctuation and every commit; one held in any of them (a call that never
 * returns, a lock never released) says nothing and Kafka Streams does nothing about it: past the
 * consumer's {@code max.poll.interval.ms} the consumer leaves its group, and the thread's tasks are
 * processed by nobody while it stays held, so the whole lifecycle stops without an error.
 *
 * <p>Here such a thread is named with what it is doing (its stack) once it has not polled for
 * {@code warnAfter}, again once past {@code limit}, when the service is no longer live (its
 * supervisor, Kubernetes' liveness probe or bin/start's, restarts it: the only way out of a call
 * that never returns), and when it polls again. {@code limit} is the consumer's
 * {@code max.poll.interval.ms}: before it a slow call (the registry waited out for up to
 * {@link Guards#PROCESSING_WAIT}) is not a fault.
 */
public final class StreamThreadWatch {

    /** The consumer metric (Kafka's {@code KafkaConsumerMetrics}): whole seconds since poll() last returned, -1 before the first. */
    static final String LAST_POLL = "last-poll-seconds-ago";

    static final String CONSUMER_METRICS = "consumer-metrics";
    /** A stream thread's main consumer is {@code <thread name>-consumer}; its restore consumer {@code -restore-consumer}. */
    private static final String MAIN_CONSUMER = "-consumer";

    private static final String RESTORE_CONSUMER = "-restore-consumer";
    /** The frames of a held thread logged: enough to see the call it is held in and who made it. */
    static final int STACK_DEPTH = 60;

    /** What {@link #check} found worth saying. */
    public record Notice(Level level, String message) {}

    public enum Level {
        INFO,
        WARN,
        ERROR
    }

    private final Supplier<Map<MetricName, ? extends Metric>> metrics;
    private final Function<String, String> stackOf;
    private final long warnAfter;
    private final long limit;
    /** The threads held at the last check, and how far each was reported: 1 past warnAfter, 2 past the limit. */
    private final Map<String, Integer> reported = new HashMap<>();

    /**
     * @param metrics   the streams client's metrics ({@code KafkaStreams::metrics})
     * @param stackOf   what a thread of that name is doing ({@link #stackOf(String)})
     */
    public StreamThreadWatch(
            Supplier<Map<MetricName, ? extends Metric>> metrics,
            Function<String, String> stackOf,
            Duration warnAfter,
            Duration limit) {
        if (warnAfter.isNegative() || warnAfter.isZero() || limit.compareTo(warnAfter) < 0) {
            throw new IllegalArgumentException(
                    "need 0 < warnAfter <= limit, got warnAfter " + warnAfter + " and limit " + limit);
        }
        this.metrics = metrics;
        this.stackOf = stackOf;
        this.warnAfter = warnAfter.toSeconds();
        this.limit = limit.toSeconds();
    }

    /** Seconds since each stream thread last polled, by thread name; a thread that never polled is left out. */
    Map<String, Long> sincePoll() {
        Map<String, Long> since = new HashMap<>();
        for (Map.Entry<MetricName, ? extends Metric> e : metrics.get().entrySet()) {
            MetricName name = e.getKey();
            String client = name.tags().get("client-id");
            if (!LAST_POLL.equals(name.name())
                    || !CONSUMER_METRICS.equals(name.group())
                    || client == null
                    || !client.endsWith(MAIN_CONSUMER)
                    || client.endsWith(RESTORE_CONSUMER)
                    || !client.contains("-StreamThread-")) {
                continue;
            }
            if (e.getValue().metricValue() instanceof Number seconds && seconds.doubleValue() >= 0) {
                since.put(client.substring(0, client.length() - MAIN_CONSUMER.length()), seconds.longValue());
            }
        }
        return since;
    }

    /** Live while no stream thread has gone {@code limit} without polling. */
    public boolean live() {
        return sincePoll().values().stream().allMatch(s -> s < limit);
    }

    /** Looks at every stream thread once (called periodically): what is new since the last look. */
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
                        Level.ERROR,
                        "stream thread %s has not polled for %d s, past max.poll.interval.ms (%d s): its consumer has"
                                        .formatted(thread, seconds, limit)
                                + " left the group and what it owns is not processed; the service is no longer live, for its"
                                + " supervisor to restart it. It is in:\n" + stackOf.apply(thread)));
            } else if (seconds >= warnAfter && was < 1) {
                reported.put(thread, 1);
                notices.add(new Notice(
                        Level.WARN,
                        "stream thread %s has not polled for %d s (it polls between batches of records, punctuations and"
                                        .formatted(thread, seconds)
                                + " commits: it is held in one); past %d s the service is no longer live. It is in:\n"
                                        .formatted(limit)
                                + stackOf.apply(thread)));
            } else if (seconds < warnAfter && was > 0) {
                reported.remove(thread);
                notices.add(new Notice(Level.INFO, "stream thread " + thread + " polls again"));
            }
        }
        // A thread gone (replaced, or the client closed) is no longer held.
        reported.keySet().retainAll(since.keySet());
        return notices;
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
