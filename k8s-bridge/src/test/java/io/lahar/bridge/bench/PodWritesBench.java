package io.lahar.bridge.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Binding;
import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.lahar.bridge.TestIntents;
import io.lahar.bridge.mapping.KubernetesJson;
import io.lahar.bridge.mapping.PodTemplates;
import io.lahar.bridge.mapping.Pods;
import io.lahar.bridge.reconcile.PodWrites;
import io.lahar.emulator.EmbeddedClusterMain;
import io.lahar.schema.CreatePod;
import io.lahar.schema.PodIntent;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What a pod's writes to Kubernetes cost the bridge's process — its create, its binding, its
 * deletion — through the client's DSL (as before {@link PodWrites}) and through {@link PodWrites},
 * rounds of each alternating, against a kube-emulator in a process of its own, so that this
 * process's CPU is the client's alone: the calling threads, the client's Vert.x event loops, the
 * JIT and the collector. The pod is made from its intent ({@link Pods#pod}) in both. Printed for
 * each path, the median of its rounds: this process's CPU a pod, and within it the calling
 * threads' and the Vert.x threads'; and new / old.
 *
 * <pre>
 * mvn -q -o -pl k8s-bridge -am test-compile dependency:build-classpath -Dmdep.outputFile=/tmp/bridge-cp.txt
 * java -cp k8s-bridge/target/test-classes:k8s-bridge/target/classes:core/target/classes:schemas/target/classes:\
 * kube-emulator/target/classes:$(cat /tmp/bridge-cp.txt) \
 *   io.lahar.bridge.bench.PodWritesBench [pods-per-round] [rounds] [threads]
 * </pre>
 */
final class PodWritesBench {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private static final String NS = "default";

    /** The writes of one pod by one path. */
    private interface Writes {
        void write(String name, Pod pod, String node);
    }

    private PodWritesBench() {}

    public static void main(String[] args) throws Exception {
        // Outside Quarkus every logger of the test class path is on: fabric8 would add its HTTP
        // logging (each answer copied and decoded) and Netty's debug paths would run, which the
        // service at INFO never pays (decision 066).
        org.jboss.logmanager.LogContext.getLogContext().getLogger("").setLevel(java.util.logging.Level.INFO);
        int pods = args.length > 0 ? Integer.parseInt(args[0]) : 2_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 6;
        int threads = args.length > 2 ? Integer.parseInt(args[2]) : 4;
        Path kubeconfig = Files.createTempFile("pod-writes-bench", ".yaml");
        Files.delete(kubeconfig);
        Process emulator = new ProcessBuilder(
                        ProcessHandle.current().info().command().orElse("java"),
                        "-Xmx1g",
                        "-cp",
                        System.getProperty("java.class.path"),
                        EmbeddedClusterMain.class.getName(),
                        "--nodes",
                        "1x{cpu=100000,memory=100000Gi}",
                        "--time-scale",
                        "100",
                        "--kubeconfig",
                        kubeconfig.toString())
                .redirectErrorStream(true)
                .start();
        try {
            awaitReady(emulator);
            run(kubeconfig, pods, rounds, threads);
        } finally {
            emulator.destroy();
            emulator.waitFor();
            Files.deleteIfExists(kubeconfig);
        }
        // The client's Vert.x threads would keep the JVM alive.
        System.exit(0);
    }

    private static void awaitReady(Process emulator) throws Exception {
        BufferedReader out =
                new BufferedReader(new InputStreamReader(emulator.getInputStream(), StandardCharsets.UTF_8));
        for (String line = out.readLine(); line != null; line = out.readLine()) {
            if (line.startsWith("ready:")) {
                // Its later output is drained, or the emulator would block on a full pipe.
                Thread drain = new Thread(() -> out.lines().forEach(l -> {}), "emulator-output");
                drain.setDaemon(true);
                drain.start();
                return;
            }
        }
        throw new IllegalStateException("the emulator ended before it was ready");
    }

    private static void run(Path kubeconfig, int pods, int rounds, int threads) throws Exception {
        ObjectMapper mapper = new ObjectMapper();
        KubernetesSerialization serialization = new KubernetesSerialization(mapper, true);
        KubernetesJson.fast(mapper);
        Config config = Config.fromKubeconfig(Files.readString(kubeconfig));
        try (KubernetesClient client = new KubernetesClientBuilder()
                .withConfig(config)
                .withKubernetesSerialization(serialization)
                .build()) {
            String node =
                    client.nodes().list().getItems().getFirst().getMetadata().getName();
            PodWrites writes = new PodWrites(client);
            Writes dsl = (name, pod, target) -> {
                Pod made = client.pods().inNamespace(NS).resource(pod).create();
                client.bindings()
                        .inNamespace(NS)
                        .resource(binding(name, made.getMetadata().getUid(), target))
                        .create();
                client.pods().inNamespace(NS).withName(name).delete();
            };
            Writes raw = (name, pod, target) -> {
                String uid = writes.create(NS, pod).uid();
                writes.bind(NS, binding(name, uid, target));
                writes.delete(NS, name);
            };
            AtomicInteger callers = new AtomicInteger();
            List<Long> callerIds = new ArrayList<>();
            ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
                Thread t = new Thread(r, "lahar-bridge-call-" + callers.incrementAndGet());
                synchronized (callerIds) {
                    callerIds.add(t.threadId());
                }
                return t;
            });
            try {
                double[][] old = new double[3][rounds];
                double[][] now = new double[3][rounds];
                // The first pair warms up, and is not counted.
                round("w-old", dsl, pods, threads, pool, callerIds, node);
                round("w-new", raw, pods, threads, pool, callerIds, node);
                for (int r = 0; r < rounds; r++) {
                    put(old, r, round("o" + r, dsl, pods, threads, pool, callerIds, node));
                    put(now, r, round("n" + r, raw, pods, threads, pool, callerIds, node));
                    System.out.printf(
                            "round %d  µs a pod [process callers vert.x]  old %s  new %s%n", r, at(old, r), at(now, r));
                }
                String[] what = {"process", "callers", "vert.x"};
                for (int k = 0; k < 3; k++) {
                    double o = median(old[k]);
                    double n = median(now[k]);
                    System.out.printf(
                            "%-8s CPU a pod (create+bind+delete): old %7.1f µs  new %7.1f µs  new/old %.2f%n",
                            what[k], o, n, n / o);
                }
            } finally {
                pool.shutdownNow();
            }
        }
    }

    /** This process's, the callers' and the Vert.x threads' CPU, in µs a pod, over one round of {@code pods}. */
    private static double[] round(
            String round, Writes path, int pods, int threads, ExecutorService pool, List<Long> callerIds, String node)
            throws Exception {
        List<PodIntent> intents = new ArrayList<>(pods);
        for (int i = 0; i < pods; i++) {
            intents.add(TestIntents.create(NS, "b" + round, "work", i, 0, TestIntents.template("sleep 600")));
        }
        PodTemplates templates = new PodTemplates();
        System.gc();
        long process = OS.getProcessCpuTime();
        long callers = threadCpu(callerIds);
        long vertx = vertxCpu();
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int first = t;
            done.add(pool.submit(() -> {
                for (int i = first; i < pods; i += threads) {
                    PodIntent intent = intents.get(i);
                    CreatePod create = (CreatePod) intent.getIntent();
                    path.write(create.getPod(), Pods.pod(intent, create, Optional.empty(), templates), node);
                }
            }));
        }
        for (Future<?> f : done) {
            f.get();
        }
        return new double[] {
            (OS.getProcessCpuTime() - process) / 1e3 / pods,
            (threadCpu(callerIds) - callers) / 1e3 / pods,
            (vertxCpu() - vertx) / 1e3 / pods
        };
    }

    private static long threadCpu(List<Long> ids) {
        long sum = 0;
        synchronized (ids) {
            for (long id : ids) {
                sum += Math.max(0, THREADS.getThreadCpuTime(id));
            }
        }
        return sum;
    }

    /** The CPU of the client's Vert.x threads (the emulator's are in its own process). */
    private static long vertxCpu() {
        long sum = 0;
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith("vert.x-")) {
                sum += Math.max(0, THREADS.getThreadCpuTime(t.threadId()));
            }
        }
        return sum;
    }

    private static Binding binding(String pod, String uid, String node) {
        return new BindingBuilder()
                .withNewMetadata()
                .withName(pod)
                .withNamespace(NS)
                .withUid(uid)
                .endMetadata()
                .withNewTarget()
                .withApiVersion("v1")
                .withKind("Node")
                .withName(node)
                .endTarget()
                .build();
    }

    private static void put(double[][] into, int round, double[] values) {
        for (int k = 0; k < values.length; k++) {
            into[k][round] = values[k];
        }
    }

    private static String at(double[][] from, int round) {
        StringBuilder s = new StringBuilder();
        for (double[] k : from) {
            s.append(s.isEmpty() ? "" : " ").append(Math.round(k[round]));
        }
        return "[" + s + "]";
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
