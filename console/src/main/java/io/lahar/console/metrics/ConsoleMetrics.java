package io.lahar.console.metrics;

import io.lahar.console.view.Amounts;
import io.lahar.console.view.ConsoleViews;
import io.lahar.console.view.QueuesView;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The console's metrics, from its views of the public topics: Volcano's queue gauges under
 * Volcano's names (allocated, deserved and capability per resource, pod groups per phase, weight,
 * unschedulable jobs, the e2e job scheduling latency histogram), and Lahar's own (jobs by queue and phase, unschedulable pod groups by
 * reason, command results by outcome, dead letters by topic and processor, records the console
 * could not decode). docs/metrics.md lists them all. Gauges are refreshed by {@link #refresh()}.
 */
public final class ConsoleMetrics implements ConsoleViews.Counters {

    private final MeterRegistry registry;
    private final Map<String, MultiGauge> gauges = new HashMap<>();
    private final DistributionSummary jobLatency;
    private ConsoleViews views;

    public ConsoleMetrics(MeterRegistry registry) {
        this.registry = registry;
        // Volcano's name and buckets (32 ms doubling ten times); from the pod group's creation to its
        // first record in phase Running, both event times on lahar.pod-groups.
        this.jobLatency = DistributionSummary.builder("volcano.e2e.job.scheduling.latency.milliseconds")
                .description("E2E job scheduling latency in milliseconds: pod group created to Running")
                .serviceLevelObjectives(32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384)
                .register(registry);
    }

    public void watch(ConsoleViews views) {
        this.views = views;
    }

    @Override
    public void commandResult(String kind, boolean accepted) {
        Counter.builder("lahar.command.results")
                .description("Command results on lahar.command-results, by kind and outcome")
                .tags("kind", kind, "outcome", accepted ? "accepted" : "rejected")
                .register(registry)
                .increment();
    }

    @Override
    public void deadLetter(String topic, String processor) {
        Counter.builder("lahar.dead.letters")
                .description(
                        "Records on lahar.dead-letters, by the topic they came from and the processor that gave up")
                .tags("topic", topic, "processor", processor)
                .register(registry)
                .increment();
    }

    @Override
    public void jobScheduled(long millis) {
        jobLatency.record(Math.max(0, millis));
    }

    @Override
    public void jobEntered(String queue, String phase) {
        Counter.builder("lahar.jobs.entered")
                .description(
                        "Jobs seen entering a phase on lahar.job-status, by queue and phase (since the console started)")
                .tags("queue", queue, "phase", phase)
                .register(registry)
                .increment();
    }

    @Override
    public void undecodable(String topic) {
        Counter.builder("lahar.console.undecodable")
                .description("Records the console could not decode, by topic")
                .tags("topic", topic)
                .register(registry)
                .increment();
    }

    /** Sets every gauge from the views as they are now. */
    public void refresh() {
        if (views == null) {
            return;
        }
        List<QueuesView.QueueRow> queues = views.queues();
        resource("allocated", queues, QueuesView.QueueRow::allocated, true);
        resource("deserved", queues, QueuesView.QueueRow::deserved, true);
        // No capability is no limit, not zero: only the queues that have one.
        resource("capacity", queues, QueuesView.QueueRow::capability, false);
        List<MultiGauge.Row<?>> weight = new ArrayList<>();
        Map<String, List<MultiGauge.Row<?>>> groups = new HashMap<>();
        for (String phase : List.of("Inqueue", "Pending", "Running", "Unknown", "Completed")) {
            groups.put(phase, new ArrayList<>());
        }
        for (QueuesView.QueueRow q : queues) {
            Tags tags = Tags.of("queue_name", q.name());
            if (q.weight() != null) {
                weight.add(MultiGauge.Row.of(tags, q.weight()));
            }
            groups.forEach((phase, rows) ->
                    rows.add(MultiGauge.Row.of(tags, q.podGroups().getOrDefault(phase, 0))));
        }
        set("volcano.queue.weight", "The queue's weight", weight);
        List<MultiGauge.Row<?>> entered = new ArrayList<>();
        for (QueuesView.QueueRow q : queues) {
            q.entered()
                    .forEach((phase, n) ->
                            entered.add(MultiGauge.Row.of(Tags.of("queue_name", q.name(), "phase", phase), n)));
        }
        set(
                "lahar.queue.pod.groups.entered",
                "Cumulative: times the queue's pod groups entered each phase, from lahar.queue-status (kept across restarts)",
                entered);
        groups.forEach((phase, rows) -> set(
                "volcano.queue.pod.group." + phase.toLowerCase(java.util.Locale.ROOT) + ".count",
                "The queue's pod groups in phase " + phase,
                rows));

        List<MultiGauge.Row<?>> jobs = new ArrayList<>();
        views.jobsByQueue()
                .forEach((queue, phases) -> phases.forEach(
                        (phase, n) -> jobs.add(MultiGauge.Row.of(Tags.of("queue", queue, "phase", phase), n))));
        set("lahar.jobs", "Jobs on lahar.job-status, by queue and phase", jobs);

        List<MultiGauge.Row<?>> unschedulable = new ArrayList<>();
        int[] total = {0};
        views.unschedulable()
                .forEach((queue, reasons) -> reasons.forEach((reason, n) -> {
                    unschedulable.add(MultiGauge.Row.of(Tags.of("queue", queue, "reason", reason), n));
                    total[0] += n;
                }));
        set(
                "lahar.podgroups.unschedulable",
                "Pending pod groups with an Unschedulable condition, by queue and reason",
                unschedulable);
        set(
                "volcano.unschedule.job.count",
                "Jobs whose pod group is unschedulable",
                List.of(MultiGauge.Row.of(Tags.empty(), total[0])));
    }

    /**
     * Volcano's three gauges per quantity: milli-cpu, memory bytes, other resources (in milli-units,
     * as Volcano counts them); cpu and memory of every queue, 0 when absent, if {@code zeros}.
     */
    private void resource(
            String what,
            List<QueuesView.QueueRow> queues,
            Function<QueuesView.QueueRow, Map<String, Amounts.Amount>> amounts,
            boolean zeros) {
        List<MultiGauge.Row<?>> cpu = new ArrayList<>();
        List<MultiGauge.Row<?>> memory = new ArrayList<>();
        List<MultiGauge.Row<?>> scalar = new ArrayList<>();
        for (QueuesView.QueueRow q : queues) {
            Map<String, Amounts.Amount> all = new java.util.TreeMap<>(amounts.apply(q));
            if (zeros) {
                all.putIfAbsent("cpu", Amounts.amount("cpu", 0));
                all.putIfAbsent("memory", Amounts.amount("memory", 0));
            }
            all.forEach((resource, amount) -> {
                Tags tags = Tags.of("queue_name", q.name());
                switch (resource) {
                    case "cpu" -> cpu.add(MultiGauge.Row.of(tags, amount.value() * 1000));
                    case "memory" -> memory.add(MultiGauge.Row.of(tags, amount.value()));
                    default -> scalar.add(MultiGauge.Row.of(tags.and("resource", resource), amount.value() * 1000));
                }
            });
        }
        set("volcano.queue." + what + ".milli.cpu", "The queue's " + what + " cpu in milli-cores", cpu);
        set("volcano.queue." + what + ".memory.bytes", "The queue's " + what + " memory in bytes", memory);
        set(
                "volcano.queue." + what + ".scalar.resources",
                "The queue's " + what + " other resources in milli-units",
                scalar);
    }

    private void set(String name, String description, List<MultiGauge.Row<?>> rows) {
        gauges.computeIfAbsent(
                        name,
                        n -> MultiGauge.builder(n).description(description).register(registry))
                .register(rows, true);
    }
}
