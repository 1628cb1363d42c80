package io.lahar.streams.bench;

import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;

/**
 * Where the stream thread's time went in the timed window: the cumulative ({@code -total})
 * metrics of the Kafka Streams client — its thread, producer and consumer — read before and after,
 * printed as differences. A time total (nanoseconds or milliseconds) is printed in milliseconds,
 * so the thread's poll, process, punctuate and commit time, the producer's flush and transaction
 * calls and the time blocked on the broker can be set against the window's length.
 */
final class ClientMetricsDelta {
    private static final Set<String> GROUPS = Set.of(
            "stream-thread-metrics",
            "producer-metrics",
            "consumer-metrics",
            "consumer-fetch-manager-metrics",
            "consumer-coordinator-metrics");

    private final Supplier<Map<MetricName, ? extends Metric>> metrics;
    private final Map<String, Double> before;

    ClientMetricsDelta(Supplier<Map<MetricName, ? extends Metric>> metrics) {
        this.metrics = metrics;
        this.before = totals();
    }

    /**
     * Samples the stream thread's totals every {@code everyMs} until {@link Timeline#close}: one row
     * per sample (ms since the start, records processed, commits, ms blocked, ms in producer flush,
     * ms waiting in the consumer's network poll, and {@code extra}), to see when the thread waits.
     */
    Timeline timeline(long everyMs, Supplier<String> extra) {
        return new Timeline(everyMs, extra);
    }

    final class Timeline implements AutoCloseable {
        private final StringBuilder rows =
                new StringBuilder("      ms  processed  commits  blocked-ms  flush-ms  poll-wait-ms  extra\n");
        private final Thread sampler;
        private volatile boolean running = true;

        private Timeline(long everyMs, Supplier<String> extra) {
            long start = System.nanoTime();
            sampler = Thread.ofPlatform().daemon().name("bench-timeline").start(() -> {
                while (running) {
                    Map<String, Double> now = totals();
                    rows.append(String.format(
                            Locale.ROOT,
                            "  %6d  %9.0f  %7.0f  %10.1f  %8.1f  %12.1f  %s%n",
                            (System.nanoTime() - start) / 1_000_000,
                            sum(now, "stream-thread-metrics", "process-total"),
                            sum(now, "stream-thread-metrics", "commit-total"),
                            sum(now, "stream-thread-metrics", "blocked-time-ns-total") / 1e6,
                            sum(now, "producer-metrics", "flush-time-ns-total") / 1e6,
                            sum(now, "consumer-metrics", "thread-1-consumer io-wait-time-ns-total") / 1e6,
                            extra.get()));
                    try {
                        Thread.sleep(everyMs);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
        }

        private double sum(Map<String, Double> totals, String group, String suffix) {
            return totals.entrySet().stream()
                    .filter(e -> e.getKey().startsWith(group + " ")
                            && e.getKey().endsWith(suffix)
                            && !e.getKey().contains("global"))
                    .mapToDouble(e -> e.getValue() - before.getOrDefault(e.getKey(), 0.0))
                    .sum();
        }

        @Override
        public void close() throws InterruptedException {
            running = false;
            sampler.join();
        }

        String rows() {
            return rows.toString();
        }
    }

    /** One line per total that moved, as {@code group client metric +delta}. */
    String report() {
        Map<String, Double> after = totals();
        StringBuilder out = new StringBuilder();
        after.forEach((name, value) -> {
            double delta = value - before.getOrDefault(name, 0.0);
            if (delta == 0) return;
            if (name.endsWith("-ns-total")) {
                out.append(String.format(Locale.ROOT, "  %-95s %12.1f ms%n", name, delta / 1e6));
            } else if (name.endsWith("-time-total") || name.endsWith("-latency-total")) {
                out.append(String.format(Locale.ROOT, "  %-95s %12.1f ms%n", name, delta));
            } else {
                out.append(String.format(Locale.ROOT, "  %-95s %12.0f%n", name, delta));
            }
        });
        return out.toString();
    }

    private Map<String, Double> totals() {
        Map<String, Double> totals = new TreeMap<>();
        metrics.get().forEach((name, metric) -> {
            // Client totals only: the per-topic and per-partition ones of the same name would count twice.
            if (!GROUPS.contains(name.group())
                    || !name.name().endsWith("-total")
                    || name.tags().containsKey("topic")
                    || name.tags().containsKey("partition")) return;
            if (!(metric.metricValue() instanceof Number number)) return;
            String client = name.tags().getOrDefault("client-id", name.tags().getOrDefault("thread-id", ""));
            totals.merge(
                    name.group() + " " + client.replaceAll(".*-StreamThread-", "thread-") + " " + name.name(),
                    number.doubleValue(),
                    Double::sum);
        });
        return totals;
    }
}
