package io.lahar.system.bench;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The summary of a {@link SystemBenchmark} run: the steady phase in windows (does the load hold?),
 * then as a whole against the aim, the CPU of every process and each consumer group's lag.
 */
final class BenchReport {

    /** The aim (issue 33): pods bound a second, sustained. */
    static final double AIM_PODS_PER_SECOND = 1000;
    /** The aim: p99 of submit → Running, in ms. */
    static final long AIM_P99_MS = 2000;

    private final BenchSettings s;
    private final Tally tally;
    private final List<SystemBenchmark.Sample> samples;
    private final long t0;
    private final long t1;
    private final int windows;

    BenchReport(BenchSettings s, Tally tally, List<SystemBenchmark.Sample> samples, long t0, long t1, int windows) {
        this.s = s;
        this.tally = tally;
        this.samples = samples;
        this.t0 = t0;
        this.t1 = t1;
        this.windows = windows;
    }

    /** Prints the report; false when the measurement itself is void (rejected jobs, a restarted process). */
    boolean print(
            PrintStream out,
            Map<String, Long> cpu0,
            Map<String, Long> cpu1,
            long stolenMs,
            Set<String> processes,
            boolean sameProcesses) {
        out.println();
        out.printf(
                Locale.ROOT,
                "## bench-system: %.1f jobs/s of %d pods (%s each, cpu %s), %d s warm-up, %d s steady%n",
                s.rate(),
                s.pods(),
                s.podDuration(),
                s.podCpu(),
                s.warmupSeconds(),
                s.durationSeconds());
        out.println();
        out.println("| window (s) | jobs submitted | reached Running | jobs completed/s | pods bound/s | pods started/s"
                + " | submit→Running p50 / p99 / max (ms) | total lag (max) | pods occupying (mean) |");
        out.println("|---|---|---|---|---|---|---|---|---|");
        long step = (t1 - t0) / windows;
        for (int i = 0; i < windows; i++) {
            long from = t0 + i * step;
            row(out, String.format(Locale.ROOT, "%d–%d", i * step / 1000, (i + 1) * step / 1000), from, from + step);
        }
        Tally.Window all = row(out, "**steady**", t0, t1);
        out.println();

        double seconds = (t1 - t0) / 1000.0;
        out.println("| process | CPU s | cores | CPU µs per pod bound |");
        out.println("|---|---|---|---|");
        long total = 0;
        double pods = all.podsBoundPerSecond() * seconds;
        for (String name : processes) {
            if (cpu0.containsKey(name) && cpu1.containsKey(name)) {
                long ms = cpu1.get(name) - cpu0.get(name);
                total += ms;
                out.printf(
                        Locale.ROOT,
                        "| %s | %.1f | %.2f | %s |%n",
                        name,
                        ms / 1000.0,
                        ms / 1000.0 / seconds,
                        pods == 0 ? "–" : String.format(Locale.ROOT, "%.0f", ms * 1000 / pods));
            }
        }
        out.printf(
                Locale.ROOT,
                "| **all** | %.1f | %.2f | %s |%n",
                total / 1000.0,
                total / 1000.0 / seconds,
                pods == 0 ? "–" : String.format(Locale.ROOT, "%.0f", total * 1000 / pods));
        out.printf(
                Locale.ROOT,
                "| (stolen by the hypervisor) | %.1f | %.2f | |%n",
                stolenMs / 1000.0,
                stolenMs / 1000.0 / seconds);
        out.println();

        out.println("| consumer group | lag, first window (mean / max) | lag, last window (mean / max) |");
        out.println("|---|---|---|");
        Map<String, String> groups = new TreeMap<>();
        samples.forEach(x -> x.lag().keySet().forEach(g -> groups.put(g, g)));
        for (String g : groups.keySet()) {
            out.printf(Locale.ROOT, "| %s | %s | %s |%n", g, lag(g, t0, t0 + step), lag(g, t1 - step, t1));
        }
        out.println();

        boolean podsMet = all.podsBoundPerSecond() >= AIM_PODS_PER_SECOND;
        boolean p99Met = all.p99() >= 0 && all.p99() < AIM_P99_MS && all.reachedRunning() == all.submitted();
        double first = meanLag(t0, t0 + step);
        double last = meanLag(t1 - step, t1);
        boolean held = last <= 2 * first + 1000;
        double occupancy = samples.stream()
                .filter(x -> x.at() >= t0 && x.at() < t1)
                .mapToInt(SystemBenchmark.Sample::occupancy)
                .average()
                .orElse(0);
        out.printf(
                Locale.ROOT,
                "pods bound/s %.0f (aim ≥ %.0f): %s%n",
                all.podsBoundPerSecond(),
                AIM_PODS_PER_SECOND,
                podsMet ? "met" : "not met");
        out.printf(
                Locale.ROOT,
                "submit→Running p99 %d ms of %d/%d jobs (aim < %d ms, every job): %s%n",
                all.p99(),
                all.reachedRunning(),
                all.submitted(),
                AIM_P99_MS,
                p99Met ? "met" : "not met");
        out.printf(
                Locale.ROOT,
                "lag held: %s (mean total lag %.0f in the first window, %.0f in the last)%n",
                held ? "yes" : "no, it grew",
                first,
                last);
        out.printf(
                Locale.ROOT,
                "cluster occupied: %.0f pods on average%s%n",
                occupancy,
                s.capacity() == 0
                        ? ""
                        : String.format(Locale.ROOT, " of %d (%.0f%%)", s.capacity(), 100 * occupancy / s.capacity()));
        if (tally.rejected() > 0) {
            out.println("VOID: " + tally.rejected() + " jobs were rejected, the first: " + tally.firstRejection());
        }
        if (!sameProcesses) {
            out.println("VOID: a process of the system was restarted during the run (see its log in the data dir)");
        }
        return tally.rejected() == 0 && sameProcesses;
    }

    private Tally.Window row(PrintStream out, String label, long from, long to) {
        Tally.Window w = tally.window(from, to);
        out.printf(
                Locale.ROOT,
                "| %s | %d | %d | %.1f | %.0f | %.0f | %d / %d / %d | %d | %.0f |%n",
                label,
                w.submitted(),
                w.reachedRunning(),
                w.jobsCompletedPerSecond(),
                w.podsBoundPerSecond(),
                w.podsStartedPerSecond(),
                w.p50(),
                w.p99(),
                w.max(),
                maxLag(from, to),
                samples.stream()
                        .filter(x -> x.at() >= from && x.at() < to)
                        .mapToInt(SystemBenchmark.Sample::occupancy)
                        .average()
                        .orElse(0));
        return w;
    }

    private long maxLag(long from, long to) {
        return samples.stream()
                .filter(x -> x.at() >= from && x.at() < to)
                .mapToLong(SystemBenchmark.Sample::totalLag)
                .max()
                .orElse(0);
    }

    private double meanLag(long from, long to) {
        return samples.stream()
                .filter(x -> x.at() >= from && x.at() < to)
                .mapToLong(SystemBenchmark.Sample::totalLag)
                .average()
                .orElse(0);
    }

    private String lag(String group, long from, long to) {
        var values = samples.stream()
                .filter(x -> x.at() >= from && x.at() < to)
                .mapToLong(x -> x.lag().getOrDefault(group, 0L))
                .summaryStatistics();
        return values.getCount() == 0
                ? "–"
                : String.format(Locale.ROOT, "%.0f / %d", values.getAverage(), values.getMax());
    }
}
