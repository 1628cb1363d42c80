package io.lahar.system.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * The processes of a system {@code bin/start} runs on a data dir, by name: each supervised service
 * from its pid file ({@code <data>/run/<name>.pid}), the broker and the registry among the
 * descendants of the infra launcher ({@code INFRA_PID} of {@code <data>/infra/infra.env}), and this
 * JVM; and their CPU time from Linux's {@code /proc/<pid>/stat}.
 */
final class SystemProcesses {

    /** Linux's clock tick: USER_HZ is 100. */
    static final long TICK_MS = 10;

    static final List<String> SERVICES =
            List.of("streams-app", "scheduler-service", "k8s-bridge", "kube-emulator", "console");

    private SystemProcesses() {}

    /** Name to pid, in report order; a process that cannot be found is left out. */
    static Map<String, Long> find(Path data) {
        Map<String, Long> pids = new LinkedHashMap<>();
        for (String service : SERVICES) {
            pidFile(data.resolve("run").resolve(service + ".pid")).ifPresent(pid -> pids.put(service, pid));
        }
        Properties env = new Properties();
        try (var in = Files.newBufferedReader(data.resolve("infra/infra.env"))) {
            env.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("no infra.env under " + data, e);
        }
        long launcher = Long.parseLong(env.getProperty("INFRA_PID").strip());
        ProcessHandle.of(launcher)
                .ifPresent(infra -> infra.descendants().forEach(p -> {
                    String line = commandLine(p.pid());
                    if (line.contains("kafka.Kafka")) {
                        pids.put("kafka broker", p.pid());
                    } else if (line.contains("quarkus-run.jar") || line.contains("apicurio")) {
                        pids.put("registry", p.pid());
                    }
                }));
        pids.put("bench harness", ProcessHandle.current().pid());
        return pids;
    }

    /** The process's arguments, NUL-separated (ProcessHandle.Info leaves out a long command line). */
    private static String commandLine(long pid) {
        try {
            return new String(Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline")));
        } catch (IOException e) {
            return "";
        }
    }

    private static Optional<Long> pidFile(Path file) {
        try {
            String[] fields = Files.readString(file).strip().split("\\s+", 2);
            return Optional.of(Long.parseLong(fields[0]));
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** CPU ms (user + system) of each process now; one that is gone is left out. */
    static Map<String, Long> cpuMillis(Map<String, Long> pids) {
        Map<String, Long> out = new LinkedHashMap<>();
        pids.forEach((name, pid) -> {
            try {
                out.put(name, cpuTicks(Files.readString(Path.of("/proc", Long.toString(pid), "stat"))) * TICK_MS);
            } catch (IOException e) {
                // gone: a supervisor's restart, which the report names
            }
        });
        return out;
    }

    /** The machine's steal time in ms (all cores), from the cpu line of {@code /proc/stat}. */
    static long stolenMillis() {
        try {
            String cpu = Files.readAllLines(Path.of("/proc/stat")).getFirst();
            return Long.parseLong(cpu.trim().split("\\s+")[8]) * TICK_MS;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * utime + stime, in clock ticks, of a {@code /proc/<pid>/stat} line: {@code pid (comm) state ...},
     * where the name may hold spaces and parentheses, so the fields count from the last ')'.
     */
    static long cpuTicks(String stat) {
        String[] rest = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(rest[11]) + Long.parseLong(rest[12]);
    }
}
