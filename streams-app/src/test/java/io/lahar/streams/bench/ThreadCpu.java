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
 *
 * <p>Beside each thread's CPU, the time it was ready to run and waited for a core (the second field
 * of {@code /proc/<pid>/task/<tid>/schedstat}, where the kernel keeps it). Why: the topology's stream
 * thread is one serial path through the round, so a round is its CPU, its waits on the broker, and
 * the time the other processes on the two cores kept it from running; only the last is this figure.
 */
final class ThreadCpu {
    private final Path tasks;
    private final Map<String, Long> before;
    private final Map<String, Long> waitedBefore;

    ThreadCpu(long pid) {
        this.tasks = Path.of("/proc", Long.toString(pid), "task");
        this.waitedBefore = new HashMap<>();
        this.before = ticks(waitedBefore);
    }

    /**
     * Threads by name (numbers folded: "GC Thread#0" and "#1" are one line), CPU ms, the largest
     * first, each followed by the ms it waited for a core where the kernel reports it.
     */
    String report() {
        Map<String, Long> waitedAfter = new HashMap<>();
        Map<String, Long> after = ticks(waitedAfter);
        Map<String, Long> byName = new HashMap<>();
        Map<String, Long> waitedByName = new HashMap<>();
        after.forEach((task, t) -> {
            long delta = t - before.getOrDefault(task, 0L);
            String name = task.substring(task.indexOf(' ') + 1);
            if (delta > 0) byName.merge(name, delta * ProcessCpu.TICK_MS, Long::sum);
            Long waited = waitedAfter.get(task);
            if (delta > 0 && waited != null) {
                waitedByName.merge(name, (waited - waitedBefore.getOrDefault(task, 0L)) / 1_000_000, Long::sum);
            }
        });
        StringBuilder out = new StringBuilder();
        long total = byName.values().stream().mapToLong(Long::longValue).sum();
        long totalWaited = waitedByName.values().stream().mapToLong(Long::longValue).sum();
        out.append(line("all threads", total, waitedByName.isEmpty() ? null : totalWaited));
        byName.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .forEach(e -> out.append(line(e.getKey(), e.getValue(), waitedByName.get(e.getKey()))));
        return out.toString();
    }

    private static String line(String name, long cpuMs, Long waitedMs) {
        return String.format(Locale.ROOT, "  %-40s %6d ms", name, cpuMs)
                + (waitedMs == null ? "" : String.format(Locale.ROOT, "   waited %5d ms for a core", waitedMs))
                + System.lineSeparator();
    }

    /**
     * The run-queue wait, in ns, of a {@code /proc/.../schedstat} line: its second field (the first
     * is the time on a core, the third the number of times it ran).
     */
    static long runQueueWaitNs(String schedstat) {
        String[] fields = schedstat.trim().split("\\s+");
        if (fields.length < 3) {
            throw new IllegalArgumentException("not a schedstat line: " + schedstat);
        }
        return Long.parseLong(fields[1]);
    }

    /**
     * "tid name" to utime + stime in clock ticks; empty where there is no /proc. {@code waited}
     * receives each thread's run-queue wait in ns where {@code schedstat} is there to read.
     */
    private Map<String, Long> ticks(Map<String, Long> waited) {
        Map<String, Long> ticks = new HashMap<>();
        if (!Files.isDirectory(tasks)) return ticks;
        try (Stream<Path> listing = Files.list(tasks)) {
            listing.forEach(task -> {
                try {
                    String stat = Files.readString(task.resolve("stat"));
                    String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
                            .replaceAll("[#-]?\\d+$", "").replaceAll("\\d+", "N");
                    String key = task.getFileName() + " " + name;
                    ticks.put(key, ProcessCpu.cpuTicks(stat));
                    Path schedstat = task.resolve("schedstat");
                    if (Files.isReadable(schedstat)) {
                        waited.put(key, runQueueWaitNs(Files.readString(schedstat)));
                    }
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
