package io.lahar.emulator.bench;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.lahar.emulator.EmbeddedCluster;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How many requests a second the emulated API answers: an {@link EmbeddedCluster} in this JVM
 * holding {@code pods} pods, read by GETs of random pods through fabric8's client (as the bridge
 * reads it, over TLS) from 1, 4, 16 and 64 concurrent callers, four seconds each. With
 * {@code --lifecycle} it is {@link PodLifecycleBench} instead: what a pod's life costs the
 * emulator's process; with {@code --selected}, {@link SelectedListBench}: what a job's
 * label-selected list and delete cost as the objects of their kind grow. A harness, not a test:
 * {@code docs/BENCHMARKS.md} says how to run it and what it showed.
 */
public final class ApiRequestBench {

    private static final long SECONDS = 4;

    private ApiRequestBench() {}

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("--lifecycle")) {
            PodLifecycleBench.main(java.util.Arrays.copyOfRange(args, 1, args.length));
            return;
        }
        if (args.length > 0 && args[0].equals("--selected")) {
            SelectedListBench.main(java.util.Arrays.copyOfRange(args, 1, args.length));
            return;
        }
        int pods = args.length > 0 ? Integer.parseInt(args[0]) : 2_000;
        try (EmbeddedCluster cluster = EmbeddedCluster.start(EmbeddedCluster.Options.defaults());
                KubernetesClient client = cluster.newClient();
                ExecutorService callers = Executors.newVirtualThreadPerTaskExecutor()) {
            PodLifecycleBench.each(
                    callers,
                    pods,
                    i -> () -> client.pods()
                            .inNamespace("default")
                            .resource(PodLifecycleBench.pod("p" + i))
                            .create());
            for (int concurrency : new int[] {1, 4, 16, 64}) {
                AtomicLong answered = new AtomicLong();
                long end = System.nanoTime() + SECONDS * 1_000_000_000L;
                List<Future<?>> readers = new ArrayList<>();
                for (int t = 0; t < concurrency; t++) {
                    Random random = new Random(t);
                    readers.add(callers.submit(() -> {
                        while (System.nanoTime() < end) {
                            client.pods()
                                    .inNamespace("default")
                                    .withName("p" + random.nextInt(pods))
                                    .get();
                            answered.incrementAndGet();
                        }
                        return null;
                    }));
                }
                for (Future<?> r : readers) {
                    r.get();
                }
                System.out.printf(
                        "%d pods, %d concurrent callers: %.0f GETs/s%n",
                        pods, concurrency, answered.get() / (double) SECONDS);
            }
        }
    }
}
