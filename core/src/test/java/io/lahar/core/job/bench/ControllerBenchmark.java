package io.lahar.core.job.bench;

import io.lahar.core.api.Job;
import io.lahar.core.api.PodGroupPhase;
import io.lahar.core.job.Input;
import io.lahar.core.job.JobController;
import io.lahar.core.job.JobInfo;
import io.lahar.core.job.JobPod;
import io.lahar.core.job.JobPods;
import io.lahar.core.job.Outcome;
import io.lahar.core.job.PodPhase;
import io.lahar.core.job.TestJobs;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The job controller alone, on the lifecycle benchmark's workload (a main class beside the tests,
 * run by {@code bin/bench-controller}, not by {@code mvn verify}): N jobs of one task with M
 * replicas are submitted, admitted and their pods observed Pending; then each round times 2·M pod
 * events per job through {@link JobController#apply} — every pod Running, then every pod Succeeded,
 * jobs side by side — as the stream thread applies them, without Kafka. Reports the thread's CPU
 * per pod event of each measured round and the median: a change to the core can be measured in
 * seconds here before the end-to-end benchmark (which adds Kafka Streams, serdes and the broker).
 */
public final class ControllerBenchmark {

    private ControllerBenchmark() {}

    public static void main(String[] args) {
        int jobs = 4000;
        int pods = 8;
        int warmUp = 8;
        int rounds = 12;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--jobs" -> jobs = positive(args, ++i);
                case "--pods" -> pods = positive(args, ++i);
                case "--warmup" -> warmUp = Integer.parseInt(args[++i]);
                case "--rounds" -> rounds = positive(args, ++i);
                default ->
                    throw new IllegalArgumentException(
                            "usage: ControllerBenchmark [--jobs N] [--pods M] [--warmup ROUNDS] [--rounds ROUNDS] (unknown argument: "
                                    + args[i] + ")");
            }
        }
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        JobController controller = new JobController();
        List<Double> measured = new ArrayList<>();
        long transitions = 0;
        for (int round = 0; round < warmUp + rounds; round++) {
            JobInfo[] states = started(controller, "r" + round + "-", jobs, pods);
            long cpu = threads.getCurrentThreadCpuTime();
            long wall = System.nanoTime();
            for (PodPhase phase : List.of(PodPhase.Running, PodPhase.Succeeded)) {
                for (int j = 0; j < jobs; j++) {
                    JobInfo s = states[j];
                    for (int k = 0; k < pods; k++) {
                        JobPod p = s.pods().get(JobPods.podName(s.job().name(), "worker", k));
                        Outcome o = controller.apply(
                                s,
                                new Input.PodObserved(
                                        p.name(),
                                        p.task(),
                                        p.index(),
                                        p.version(),
                                        phase,
                                        phase == PodPhase.Succeeded ? 0 : null,
                                        0,
                                        false,
                                        2_000 + k));
                        transitions += o.transitions().size();
                        s = o.state();
                    }
                    states[j] = s;
                }
            }
            double events = 2.0 * jobs * pods;
            double cpuMicros = (threads.getCurrentThreadCpuTime() - cpu) / 1_000.0 / events;
            double wallMicros = (System.nanoTime() - wall) / 1_000.0 / events;
            boolean warm = round < warmUp;
            if (!warm) {
                measured.add(cpuMicros);
            }
            System.out.printf(
                    "%s %2d: %.2f µs CPU / pod event (%.2f µs wall), %s%n",
                    warm ? "warm-up" : "round  ",
                    warm ? round + 1 : round - warmUp + 1,
                    cpuMicros,
                    wallMicros,
                    states[0].phase());
        }
        Collections.sort(measured);
        System.out.printf(
                "median of %d rounds: %.2f µs CPU / pod event, %d x %d pods, %d transitions%n",
                rounds, measured.get(measured.size() / 2), jobs, pods, transitions);
    }

    /** N jobs submitted, their pod group Inqueue, every pod created and observed Pending. */
    private static JobInfo[] started(JobController controller, String prefix, int jobs, int pods) {
        JobInfo[] states = new JobInfo[jobs];
        for (int j = 0; j < jobs; j++) {
            Job job = TestJobs.job(prefix + j, "minAvailable: " + pods, "worker:" + pods);
            JobInfo s =
                    controller.apply(JobInfo.empty(), new Input.Submit(job, 0)).state();
            s = controller
                    .apply(s, new Input.PodGroupObserved(PodGroupPhase.Inqueue, 1_000))
                    .state();
            for (JobPod p : List.copyOf(s.pods().values())) {
                s = controller
                        .apply(
                                s,
                                new Input.PodObserved(
                                        p.name(),
                                        p.task(),
                                        p.index(),
                                        p.version(),
                                        PodPhase.Pending,
                                        null,
                                        0,
                                        false,
                                        1_500))
                        .state();
            }
            states[j] = s;
        }
        return states;
    }

    private static int positive(String[] args, int i) {
        int n = Integer.parseInt(args[i]);
        if (n < 1) {
            throw new IllegalArgumentException(args[i - 1] + " must be at least 1, was " + n);
        }
        return n;
    }
}
