package io.lahar.scheduler.loop;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The scheduler's Prometheus metrics: session duration (a timer, and Volcano's
 * {@code volcano_e2e_scheduling_latency_milliseconds} histogram), placements (a counter, so
 * Prometheus' rate() gives placements per second), pending pod groups by unschedulable reason,
 * unconfirmed bindings, the epoch and the loops restarted after a failure.
 */
public final class SchedulerMetrics {
    private final MeterRegistry registry;
    private final Timer sessionDuration;
    private final DistributionSummary e2eLatency;
    private final Counter placements;
    private final Counter evictions;
    private final Counter pausedSessions;
    private final Counter restarts;
    private final AtomicInteger unconfirmed = new AtomicInteger();
    private final AtomicLong epoch = new AtomicLong();
    private final Map<String, AtomicInteger> pendingByReason = new ConcurrentHashMap<>();

    public SchedulerMetrics(MeterRegistry registry) {
        this.registry = registry;
        sessionDuration = Timer.builder("lahar.scheduler.session.duration")
                .description("Duration of one scheduling session")
                .register(registry);
        // Volcano's name and buckets (5 ms doubling ten times): a session from snapshot to decisions.
        e2eLatency = DistributionSummary.builder("volcano.e2e.scheduling.latency.milliseconds")
                .description("E2E scheduling latency in milliseconds (scheduling algorithm + binding)")
                .serviceLevelObjectives(5, 10, 20, 40, 80, 160, 320, 640, 1280, 2560)
                .register(registry);
        placements = Counter.builder("lahar.scheduler.placements")
                .description("Pods bound by the scheduler")
                .register(registry);
        evictions = Counter.builder("lahar.scheduler.evictions")
                .description("Pods evicted by the scheduler")
                .register(registry);
        pausedSessions = Counter.builder("lahar.scheduler.sessions.paused")
                .description("Sessions skipped because too many bindings wait for confirmation")
                .register(registry);
        restarts = Counter.builder("lahar.scheduler.loop.restarts")
                .description("Scheduling loops started anew after one failed (a broker outage outlasted its clients)")
                .register(registry);
        Gauge.builder("lahar.scheduler.bindings.unconfirmed", unconfirmed, AtomicInteger::get)
                .description("Bindings decided and not yet confirmed by a pod event")
                .register(registry);
        Gauge.builder("lahar.scheduler.epoch", epoch, AtomicLong::get)
                .description("The epoch this instance writes its decisions with")
                .register(registry);
    }

    void session(Duration took, int placed, int evicted, Map<String, Integer> pending) {
        sessionDuration.record(took);
        e2eLatency.record(took.toNanos() / 1e6);
        placements.increment(placed);
        evictions.increment(evicted);
        // A reason that no group has any more drops to zero rather than keeping its last count.
        pendingByReason.values().forEach(v -> v.set(0));
        pending.forEach((reason, n) -> pendingByReason
                .computeIfAbsent(reason, r -> {
                    AtomicInteger holder = new AtomicInteger();
                    Gauge.builder("lahar.scheduler.podgroups.pending", holder, AtomicInteger::get)
                            .description("Pod groups not scheduled, by the reason of their Unschedulable condition")
                            .tag("reason", r)
                            .register(registry);
                    return holder;
                })
                .set(n));
    }

    void paused() {
        pausedSessions.increment();
    }

    /** One failed loop replaced by a new one. */
    public void restarted() {
        restarts.increment();
    }

    public double restarts() {
        return restarts.count();
    }

    void unconfirmed(int n) {
        unconfirmed.set(n);
    }

    void epoch(long e) {
        epoch.set(e);
    }

    public double placements() {
        return placements.count();
    }
}
