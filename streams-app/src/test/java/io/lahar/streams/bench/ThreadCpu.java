package io.lahar.streams.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
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
    private final Map<String, Sample> before;

    /** One thread's counters: CPU in clock ticks, run-queue wait in ns (null where the kernel has no schedstat). */
    private record Sample(long ticks, Long waitedNs) {
        Sample plus(Sample o) {
            Long waited = waitedNs == null ? o.waitedNs : o.waitedNs == null ? waitedNs : waitedNs + o.waitedNs;
            return new Sample(ticks + o.ticks, waited);
        }
    }

    ThreadCpu(long pid) {
        this.tasks = Path.of("/proc", Long.toString(pid), "task");
        this.before = samples();
    }

    /**
     * Threads by name (numbers folded: "GC Thread#0" and "#1" are one line), CPU ms, the largest
     * first, each followed by the ms it waited for a core where the kernel reports it.
     */
    String report() {
        // Per name, what the window added: CPU in ticks, the wait in ns (null where not reported).
        Map<String, Sample> byName = new HashMap<>();
        samples().forEach((task, now) -> {
            Sample was = before.getOrDefault(task, new Sample(0, 0L));
            long delta = now.ticks() - was.ticks();
            if (delta <= 0) return;
            Long waited =
                    now.waitedNs() == null ? null : now.waitedNs() - (was.waitedNs() == null ? 0 : was.waitedNs());
            byName.merge(task.substring(task.indexOf(' ') + 1), new Sample(delta, waited), Sample::plus);
        });
        Sample total = byName.values().stream().reduce(new Sample(0, null), Sample::plus);
        StringBuilder out = new StringBuilder();
        out.append(line("all threads", total));
        byName.entrySet().stream()
                .sorted(Comparator.comparingLong(
                                (Map.Entry<String, Sample> e) -> e.getValue().ticks())
                        .reversed())
                .forEach(e -> out.append(line(e.getKey(), e.getValue())));
        return out.toString();
    }

    private static String line(String name, Sample used) {
        return String.format(Locale.ROOT, "  %-40s %6d ms", name, used.ticks() * ProcessCpu.TICK_MS)
                + (used.waitedNs() == null
                        ? ""
                        : String.format(Locale.ROOT, "   waited %5d ms for a core", used.waitedNs() / 1_000_000))
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

    /** "tid name" to the thread's counters; empty where there is no /proc. */
    private Map<String, Sample> samples() {
        Map<String, Sample> samples = new HashMap<>();
        if (!Files.isDirectory(tasks)) return samples;
        try (Stream<Path> listing = Files.list(tasks)) {
            listing.forEach(task -> {
                try {
                    String stat = Files.readString(task.resolve("stat"));
                    String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
                            .replaceAll("[#-]?\\d+$", "")
                            .replaceAll("\\d+", "N");
                    samples.put(task.getFileName() + " " + name, new Sample(ProcessCpu.cpuTicks(stat), waitedNs(task)));
                } catch (IOException | RuntimeException gone) {
                    // The thread ended between the listing and the read.
                }
            });
        } catch (IOException e) {
            return samples;
        }
        return samples;
    }

    /** The thread's run-queue wait in ns; null where the kernel keeps no schedstat. */
    private static Long waitedNs(Path task) throws IOException {
        Path schedstat = task.resolve("schedstat");
        return Files.exists(schedstat) ? runQueueWaitNs(Files.readString(schedstat)) : null;
    }
}
