package io.lahar.streams.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * CPU time of whole processes over a window — this JVM, and the broker and registry the harness
 * started — from Linux's {@code /proc/<pid>/stat}. Why: on two cores a round's rate is bounded by
 * the CPU every process spends on its events, not by the stream thread alone; the broker's work
 * grows with what the topology writes and reads back, and was invisible to the per-thread report.
 *
 * <p>Beside them, the time the hypervisor took the machine's cores for others ({@value #STOLEN},
 * all cores, from {@code /proc/stat}): on a shared virtual machine it was a large share of the
 * cores during some runs, and a round that lost it is slower on either side for no cause of its own.
 */
final class ProcessCpu {
    /** Linux's clock tick: USER_HZ is 100. */
    static final long TICK_MS = 10;
    /** The report's name for the cores' stolen time. */
    static final String STOLEN = "stolen by the hypervisor";

    private final Map<String, Long> pids;
    private final Map<String, Long> before;

    /** @param pids process name to pid, in report order */
    ProcessCpu(Map<String, Long> pids) {
        this.pids = pids;
        this.before = ticks();
    }

    /** CPU ms of each process since construction; a process that cannot be read is left out. */
    Map<String, Long> millis() {
        Map<String, Long> now = ticks();
        Map<String, Long> out = new LinkedHashMap<>();
        now.forEach((name, t) -> {
            Long t0 = before.get(name);
            if (t0 != null) out.put(name, (t - t0) * TICK_MS);
        });
        return out;
    }

    /** "name X ms, name Y ms". */
    static String format(Map<String, Long> millis) {
        return millis.entrySet().stream()
                .map(e -> String.format(Locale.ROOT, "%s %d ms", e.getKey(), e.getValue()))
                .collect(Collectors.joining(", "));
    }

    /**
     * utime + stime, in clock ticks, of a {@code /proc/.../stat} line (a process's or a thread's):
     * {@code pid (comm) state ...}, where the name may hold spaces and parentheses, so the fields
     * are counted from the last ')'; utime and stime are the 12th and 13th after it.
     */
    static long cpuTicks(String stat) {
        String[] rest = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(rest[11]) + Long.parseLong(rest[12]);
    }

    /**
     * The steal time, in clock ticks, of the {@code cpu} line of {@code /proc/stat} (all cores):
     * {@code cpu user nice system idle iowait irq softirq steal ...}.
     */
    static long stealTicks(String cpuLine) {
        String[] fields = cpuLine.trim().split("\\s+");
        if (!fields[0].equals("cpu")) {
            throw new IllegalArgumentException("not the cpu line of /proc/stat: " + cpuLine);
        }
        return Long.parseLong(fields[8]);
    }

    private Map<String, Long> ticks() {
        Map<String, Long> ticks = new LinkedHashMap<>();
        pids.forEach((name, pid) -> {
            try {
                ticks.put(name, cpuTicks(Files.readString(Path.of("/proc", Long.toString(pid), "stat"))));
            } catch (IOException | RuntimeException unreadable) {
                // No /proc (not Linux), or the process is gone: nothing to say about it.
            }
        });
        try (var lines = Files.lines(Path.of("/proc/stat"))) {
            lines.findFirst().ifPresent(cpu -> ticks.put(STOLEN, stealTicks(cpu)));
        } catch (IOException | RuntimeException unreadable) {
            // No /proc/stat, or a kernel without steal accounting: nothing to say.
        }
        return ticks;
    }
}
