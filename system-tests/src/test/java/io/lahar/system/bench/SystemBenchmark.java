package io.lahar.system.bench;

import io.lahar.schema.serde.RegistrySerdes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.CommonClientConfigs;

/**
 * The whole system under a steady load (not a test: {@code bin/bench-system} starts a system with
 * {@code bin/start} and runs this against it; {@code mvn verify} never does).
 *
 * <p>Jobs of {@code --pods} pods each (one gang) are submitted at {@code --rate} jobs a second as
 * {@code SubmitJob} commands, for {@code --warmup} seconds and then for {@code --duration} seconds
 * of the steady phase that is measured; their pods run {@code --pod-duration} on the simulated
 * nodes; each job is deleted once it finished. Then up to {@code --drain} seconds for the steady
 * phase's jobs to reach Running. Measured over the steady phase, from the records the services
 * wrote ({@link RunObserver}): jobs completed and pods bound per second, the percentiles of
 * submit → Running per job, the CPU seconds of every process ({@link SystemProcesses}), every
 * consumer group's lag and the pods occupying the cluster every 5 s ({@link LagSampler}); a
 * timeline in six windows shows whether the load held.
 *
 * <pre>
 *   SystemBenchmark --data DIR [--rate JOBS/S] [--pods N] [--pod-duration D] [--pod-cpu C]
 *                   [--warmup S] [--duration S] [--drain S] [--capacity PODS]
 * </pre>
 */
public final class SystemBenchmark {

    private static final int WINDOWS = 6;
    private static final long SAMPLE_MS = 5000;

    public static void main(String[] args) throws Exception {
        BenchSettings settings = BenchSettings.parse(args);
        System.exit(new SystemBenchmark().run(settings) ? 0 : 1);
    }

    private boolean run(BenchSettings s) throws Exception {
        Properties context = new Properties();
        try (var in = Files.newBufferedReader(s.data().resolve("context"))) {
            context.load(in);
        }
        Map<String, Object> kafka = new HashMap<>();
        kafka.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, context.getProperty("bootstrap"));
        RegistrySerdes serdes = new RegistrySerdes(
                context.getProperty("registry"),
                RegistrySerdes.Credentials.fromFile(Path.of(context.getProperty("registry.credentials.file"))));
        String namespace = "bench";
        String prefix = "b" + UUID.randomUUID().toString().substring(0, 4) + "-";
        Map<String, Long> pids = SystemProcesses.find(s.data());
        System.out.println("bench-system: processes " + pids);

        long begin = System.currentTimeMillis();
        long t0 = begin + s.warmupSeconds() * 1000L;
        long t1 = t0 + s.durationSeconds() * 1000L;
        Tally tally = new Tally(begin, s.warmupSeconds() + s.durationSeconds() + s.drainSeconds() + 120);
        List<Sample> samples = new ArrayList<>();
        ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
        try (RunObserver observer = new RunObserver(kafka, serdes, namespace, tally);
                JobSubmitter submitter = new JobSubmitter(
                        kafka, serdes, namespace, prefix, s.pods(), s.podDuration(), s.podCpu(), tally);
                LagSampler lag = new LagSampler(kafka)) {
            observer.start();
            sampler.scheduleAtFixedRate(
                    () -> {
                        try {
                            Sample sample = new Sample(System.currentTimeMillis(), lag.sample(), tally.occupancy());
                            synchronized (samples) {
                                samples.add(sample);
                            }
                        } catch (Exception e) {
                            System.err.println("bench-system: could not sample the lag: " + e);
                        }
                    },
                    SAMPLE_MS,
                    SAMPLE_MS,
                    TimeUnit.MILLISECONDS);

            System.out.printf(
                    "bench-system: warm-up, %d s at %.1f jobs/s of %d pods%n", s.warmupSeconds(), s.rate(), s.pods());
            submitter.run(s.rate(), t0);
            Map<String, Long> cpu0 = SystemProcesses.cpuMillis(pids);
            long stolen0 = SystemProcesses.stolenMillis();
            System.out.printf("bench-system: steady phase, %d s%n", s.durationSeconds());
            int sent = submitter.run(s.rate(), t1);
            Map<String, Long> cpu1 = SystemProcesses.cpuMillis(pids);
            long stolen1 = SystemProcesses.stolenMillis();
            System.out.printf(
                    "bench-system: %d jobs submitted; waiting up to %d s for the steady phase's jobs to run%n",
                    sent, s.drainSeconds());
            long drainEnd = System.currentTimeMillis() + s.drainSeconds() * 1000L;
            while (tally.notRunning(t0, t1) > 0 && System.currentTimeMillis() < drainEnd) {
                Thread.sleep(500);
            }
            Thread.sleep(1000); // the last completions of the window
            sampler.shutdownNow();
            List<Sample> taken;
            synchronized (samples) {
                taken = List.copyOf(samples);
            }
            return new BenchReport(s, tally, taken, t0, t1, WINDOWS)
                    .print(
                            System.out,
                            cpu0,
                            cpu1,
                            stolen1 - stolen0,
                            pids.keySet(),
                            SystemProcesses.find(s.data()).equals(pids));
        } finally {
            sampler.shutdownNow();
        }
    }

    /** What the sampler saw at one moment: each group's lag, the pods occupying the cluster. */
    record Sample(long at, Map<String, Long> lag, int occupancy) {
        long totalLag() {
            return lag.values().stream().mapToLong(Long::longValue).sum();
        }
    }
}
