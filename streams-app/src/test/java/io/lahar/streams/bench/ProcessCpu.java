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
 */
final class ProcessCpu {
    /** Linux's clock tick: USER_HZ is 100. */
    static final long TICK_MS = 10;

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

    private Map<String, Long> ticks() {
        Map<String, Long> ticks = new LinkedHashMap<>();
        pids.forEach((name, pid) -> {
            try {
                ticks.put(name, cpuTicks(Files.readString(Path.of("/proc", Long.toString(pid), "stat"))));
            } catch (IOException | RuntimeException unreadable) {
                // No /proc (not Linux), or the process is gone: nothing to say about it.
            }
        });
        return ticks;
    }
}
