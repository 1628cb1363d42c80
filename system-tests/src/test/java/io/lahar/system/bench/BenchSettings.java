package io.lahar.system.bench;

import java.nio.file.Path;

/**
 * The load of a {@link SystemBenchmark} run and the system it runs on: bin/start's data dir, the
 * cluster's capacity in pods (for the occupancy it reports), the jobs' shape and rate, the phases'
 * lengths. The defaults are the aim's: 100-pod gangs at 10 jobs a second (1,000 pods a second).
 */
record BenchSettings(
        Path data,
        double rate,
        int pods,
        String podDuration,
        String podCpu,
        int warmupSeconds,
        int durationSeconds,
        int drainSeconds,
        int capacity) {

    static final String USAGE = "usage: SystemBenchmark --data DIR [--rate JOBS_PER_SECOND] [--pods N]"
            + " [--pod-duration D] [--pod-cpu C] [--warmup S] [--duration S] [--drain S] [--capacity PODS]";

    static BenchSettings parse(String... args) {
        Path data = null;
        double rate = 10;
        int pods = 100;
        String podDuration = "1s";
        String podCpu = "1";
        int warmup = 60;
        int duration = 300;
        int drain = 60;
        int capacity = 0;
        for (int i = 0; i < args.length; i++) {
            String value = i + 1 < args.length ? args[i + 1] : null;
            if (value == null) {
                throw new IllegalArgumentException(args[i] + " needs a value; " + USAGE);
            }
            switch (args[i++]) {
                case "--data" -> data = Path.of(value);
                case "--rate" -> rate = Double.parseDouble(value);
                case "--pods" -> pods = positive(args[i - 1], value);
                case "--pod-duration" -> podDuration = value;
                case "--pod-cpu" -> podCpu = value;
                case "--warmup" -> warmup = positive(args[i - 1], value);
                case "--duration" -> duration = positive(args[i - 1], value);
                case "--drain" -> drain = positive(args[i - 1], value);
                case "--capacity" -> capacity = positive(args[i - 1], value);
                default -> throw new IllegalArgumentException("unknown argument " + args[i - 1] + "; " + USAGE);
            }
        }
        if (data == null) {
            throw new IllegalArgumentException("--data is required; " + USAGE);
        }
        if (!(rate > 0)) {
            throw new IllegalArgumentException("--rate must be above 0, got " + rate);
        }
        return new BenchSettings(data, rate, pods, podDuration, podCpu, warmup, duration, drain, capacity);
    }

    private static int positive(String flag, String value) {
        int n = Integer.parseInt(value);
        if (n <= 0) {
            throw new IllegalArgumentException(flag + " must be above 0, got " + value);
        }
        return n;
    }
}
