package io.lahar.emulator.bench;

import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.lahar.emulator.EmbeddedClusterMain;
import io.lahar.emulator.PodRunPlan;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/**
 * What a pod's life costs the emulator: an emulator process of its own ({@link EmbeddedClusterMain},
 * time scale 0, so a pod ends as soon as it runs) and this JVM as its one client, watching pods as
 * the bridge does. Each round creates {@code pods} unbound pods, then binds them all (the simulated
 * kubelet runs each to Succeeded) and waits until the watch has seen every one Succeeded, then
 * deletes them, 16 requests at a time. Printed per phase: the emulator process's CPU a pod (from
 * the operating system, so the client's own costs are not in it) and pods a second. The first round
 * warms up. {@code -Dbench.emulator.jvm="..."} gives the emulator's JVM options (a JFR recording).
 * With {@code --webhooks}, a ValidatingWebhookConfiguration like the bridge's (a webhook for each of
 * Volcano's kinds, none of them for pods) is stored first, as in the whole system. With {@code
 * --selector}, the harness watches pods through a label selector, as the bridge does.
 */
final class PodLifecycleBench {

    private static final int CONCURRENT = 16;
    private static final String NS = "default";
    private static final String LABEL = "bench";

    private PodLifecycleBench() {}

    public static void main(String[] args) throws Exception {
        int pods = args.length > 0 ? Integer.parseInt(args[0]) : 2_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 4;
        boolean webhooks = List.of(args).contains("--webhooks");
        boolean selector = List.of(args).contains("--selector");
        Path dir = Files.createTempDirectory("lahar-lifecycle-bench");
        Path kubeconfig = dir.resolve("kubeconfig.yaml");
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx1g", "-XX:+UseParallelGC"));
        String jvm = System.getProperty("bench.emulator.jvm", "").trim();
        if (!jvm.isEmpty()) {
            command.addAll(List.of(jvm.split("\\s+")));
        }
        command.addAll(List.of(
                "-cp",
                System.getProperty("java.class.path"),
                EmbeddedClusterMain.class.getName(),
                "--port",
                "0",
                "--time-scale",
                "0",
                "--kubeconfig",
                kubeconfig.toString()));
        Process emulator = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("emulator.log").toFile())
                .start();
        try {
            awaitReady(emulator, dir.resolve("emulator.log"));
            Config config = new ConfigBuilder(Config.fromKubeconfig(Files.readString(kubeconfig)))
                    .withHttp2Disable(true)
                    .build();
            try (KubernetesClient client =
                            new KubernetesClientBuilder().withConfig(config).build();
                    ExecutorService callers = Executors.newVirtualThreadPerTaskExecutor()) {
                if (webhooks) {
                    registerWebhooks(client);
                }
                Set<String> succeeded = ConcurrentHashMap.newKeySet();
                var watched = selector
                        ? client.pods().inNamespace(NS).withLabel(LABEL, "lifecycle")
                        : client.pods().inNamespace(NS);
                try (Watch watch = watched.watch(new Watcher<>() {
                    @Override
                    public void eventReceived(Action action, Pod pod) {
                        if (pod.getStatus() != null
                                && "Succeeded".equals(pod.getStatus().getPhase())) {
                            succeeded.add(pod.getMetadata().getName());
                        }
                    }

                    @Override
                    public void onClose(WatcherException cause) {}
                })) {
                    for (int round = 0; round < rounds; round++) {
                        String prefix = "r" + round + "-";
                        String label = round == 0 ? "warm-up" : "round " + round;
                        var inNamespace = client.pods().inNamespace(NS);
                        measure(
                                label,
                                "create",
                                pods,
                                emulator,
                                () -> each(
                                        callers,
                                        pods,
                                        i -> () -> inNamespace
                                                .resource(pod(prefix + i))
                                                .create()));
                        measure(label, "bind, run to Succeeded", pods, emulator, () -> {
                            each(callers, pods, i -> () -> bind(client, prefix + i, "node-" + (i % 3)));
                            awaitSucceeded(succeeded, prefix, pods);
                        });
                        measure(
                                label,
                                "delete",
                                pods,
                                emulator,
                                () -> each(
                                        callers,
                                        pods,
                                        i -> () ->
                                                inNamespace.withName(prefix + i).delete()));
                    }
                }
            }
        } finally {
            emulator.destroy();
            emulator.waitFor(10, TimeUnit.SECONDS);
            emulator.destroyForcibly();
        }
    }

    private static void bind(KubernetesClient client, String pod, String node) {
        client.bindings()
                .inNamespace(NS)
                .resource(new BindingBuilder()
                        .withNewMetadata()
                        .withName(pod)
                        .endMetadata()
                        .withNewTarget()
                        .withKind("Node")
                        .withName(node)
                        .endTarget()
                        .build())
                .create();
    }

    private static void awaitSucceeded(Set<String> succeeded, String prefix, int pods) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
        while (succeeded.stream().filter(n -> n.startsWith(prefix)).count() < pods) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the pods did not all succeed within 5 minutes");
            }
            Thread.sleep(5);
        }
    }

    /** One webhook per Volcano kind the bridge validates; the address is never called (no pod is reviewed). */
    private static void registerWebhooks(KubernetesClient client) {
        List<Map<String, Object>> webhooks = new ArrayList<>();
        for (String kind : List.of("jobs", "queues", "jobflows", "jobtemplates", "cronjobs")) {
            webhooks.add(Map.of(
                    "name",
                    "validate-" + kind + ".lahar.io",
                    "clientConfig",
                    Map.of("url", "https://127.0.0.1:1/" + kind),
                    "rules",
                    List.of(Map.of(
                            "apiGroups", List.of("batch.volcano.sh", "scheduling.volcano.sh", "flow.volcano.sh"),
                            "apiVersions", List.of("*"),
                            "operations", List.of("CREATE", "UPDATE"),
                            "resources", List.of(kind))),
                    "failurePolicy",
                    "Fail",
                    "sideEffects",
                    "None",
                    "admissionReviewVersions",
                    List.of("v1")));
        }
        client.genericKubernetesResources("admissionregistration.k8s.io/v1", "ValidatingWebhookConfiguration")
                .resource(new GenericKubernetesResourceBuilder()
                        .withApiVersion("admissionregistration.k8s.io/v1")
                        .withKind("ValidatingWebhookConfiguration")
                        .withNewMetadata()
                        .withName("bench-volcano")
                        .endMetadata()
                        .withAdditionalProperties(Map.of("webhooks", webhooks))
                        .build())
                .create();
    }

    private interface Phase {
        void run() throws Exception;
    }

    private static void measure(String round, String phase, int pods, Process emulator, Phase work) throws Exception {
        Duration cpuBefore = cpu(emulator);
        long start = System.nanoTime();
        work.run();
        double seconds = (System.nanoTime() - start) / 1e9;
        double cpuMs = cpu(emulator).minus(cpuBefore).toNanos() / 1e6;
        System.out.printf(
                "%s, %s: %d pods in %.2f s, %.0f pods/s, emulator CPU %.2f ms a pod%n",
                round, phase, pods, seconds, pods / seconds, cpuMs / pods);
    }

    private static Duration cpu(Process process) {
        return process.info()
                .totalCpuDuration()
                .orElseThrow(() -> new IllegalStateException("this system does not tell a process's CPU time"));
    }

    /** Runs {@code call(i)} for every i below {@code count}, {@link #CONCURRENT} at a time. */
    static void each(ExecutorService callers, int count, IntFunction<Runnable> call) throws Exception {
        List<Future<?>> running = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            running.add(callers.submit(call.apply(i)));
            if (running.size() == CONCURRENT) {
                for (Future<?> f : running) {
                    f.get();
                }
                running.clear();
            }
        }
        for (Future<?> f : running) {
            f.get();
        }
    }

    /** A pod of one container that runs for a second (no time at time scale 0). */
    static Pod pod(String name) {
        return new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .addToLabels(LABEL, "lifecycle")
                .addToAnnotations(PodRunPlan.DURATION, "1s")
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("c")
                .withImage("busybox")
                .endContainer()
                .endSpec()
                .build();
    }

    private static void awaitReady(Process emulator, Path log) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (System.nanoTime() < deadline) {
            if (!emulator.isAlive()) {
                throw new IllegalStateException("the emulator ended: " + Files.readString(log));
            }
            try (BufferedReader lines =
                    new BufferedReader(new InputStreamReader(Files.newInputStream(log), StandardCharsets.UTF_8))) {
                if (lines.lines().anyMatch(l -> l.startsWith("ready:"))) {
                    return;
                }
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("the emulator was not ready within 2 minutes");
    }
}
