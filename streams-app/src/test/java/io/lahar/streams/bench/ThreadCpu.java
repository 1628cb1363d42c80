package io.lahar.streams.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * CPU time of every thread of a JVM (this one, or the topology's) over a window, by thread name,
 * from Linux's {@code /proc/<pid>/task}: the JIT compiler and the garbage collector included, which the JVM's own
 * thread beans do not show. Why: on two cores the benchmark's window is CPU-bound, and whether the
 * stream thread, the clients' I/O threads, the harness's watchers or the JVM itself spends it
 * decides what to make cheaper.
 */
final class ThreadCpu {
    private final Path tasks;
    private final Map<String, Long> before;

    ThreadCpu(long pid) {
        this.tasks = Path.of("/proc", Long.toString(pid), "task");
        this.before = ticks();
    }

    /** Threads by name (numbers folded: "GC Thread#0" and "#1" are one line), CPU ms, the largest first. */
    String report() {
        Map<String, Long> after = ticks();
        Map<String, Long> byName = new HashMap<>();
        after.forEach((task, t) -> {
            long delta = t - before.getOrDefault(task, 0L);
            if (delta > 0) byName.merge(task.substring(task.indexOf(' ') + 1), delta * ProcessCpu.TICK_MS, Long::sum);
        });
        StringBuilder out = new StringBuilder();
        long total = byName.values().stream().mapToLong(Long::longValue).sum();
        out.append(String.format(Locale.ROOT, "  %-40s %6d ms%n", "all threads", total));
        byName.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .forEach(e -> out.append(String.format(Locale.ROOT, "  %-40s %6d ms%n", e.getKey(), e.getValue())));
        return out.toString();
    }

    /** "tid name" to utime + stime in clock ticks; empty where there is no /proc. */
    private Map<String, Long> ticks() {
        Map<String, Long> ticks = new HashMap<>();
        if (!Files.isDirectory(tasks)) return ticks;
        try (Stream<Path> listing = Files.list(tasks)) {
            listing.forEach(task -> {
                try {
                    String stat = Files.readString(task.resolve("stat"));
                    String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
                            .replaceAll("[#-]?\\d+$", "").replaceAll("\\d+", "N");
                    ticks.put(task.getFileName() + " " + name, ProcessCpu.cpuTicks(stat));
                } catch (IOException | RuntimeException gone) {
                    // The thread ended between the listing and the read.
                }
            });
        } catch (IOException e) {
            return ticks;
        }
        return ticks;
    }
}
