package io.lahar.bridge.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.module.blackbird.BlackbirdModule;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.lahar.bridge.TestIntents;
import io.lahar.bridge.TestPods;
import io.lahar.bridge.WatchedPodJson;
import io.lahar.bridge.mapping.KubernetesJson;
import io.lahar.bridge.mapping.ManagedPods;
import io.lahar.bridge.mapping.PodTemplates;
import io.lahar.bridge.mapping.Pods;
import io.lahar.schema.CreatePod;
import io.lahar.schema.PodIntent;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.IntConsumer;

/**
 * What the bridge's own handling of Kubernetes JSON costs a pod, the way it was and the way it is,
 * in one JVM with rounds of each alternating (the whole system's figures on a busy machine cannot
 * separate it): a pod made from its intent and written as the create sends it; a watch event of a
 * pod read; a pod read from the create's answer. "before" is the client's mapper with Blackbird
 * alone and every pod's template parsed for it; "after" the mapper as {@link KubernetesJson#fast}
 * configures it and the task's spec shared ({@link PodTemplates}). And the watch event of a pod the
 * bridge manages, as big as a real cluster's, read as the informer reads it by the pod watch's
 * serialization ({@link ManagedPods}): against the client's mapper with Blackbird alone, as above,
 * then against the mapper of {@link KubernetesJson#fast} (a whole pod, as the pod watch read it until
 * it had its own). Printed: this thread's CPU nanoseconds an operation, the median of the rounds,
 * and after / before.
 *
 * <pre>
 * mvn -q -o -pl k8s-bridge -am test-compile dependency:build-classpath -Dmdep.outputFile=/tmp/bridge-cp.txt
 * java -cp k8s-bridge/target/test-classes:k8s-bridge/target/classes:core/target/classes:schemas/target/classes:$(cat /tmp/bridge-cp.txt) \
 *   io.lahar.bridge.bench.BridgeJsonBench [ops-per-round] [rounds] [part-of-a-case's-name]
 * </pre>
 */
final class BridgeJsonBench {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    /** A pod's template as the engine writes it: the pod's own metadata, the task's spec. */
    private static final String TEMPLATE = """
            {"metadata":{"name":"bench-%1$d-work-%2$d","namespace":"default","labels":{"volcano.sh/task-index":"%2$d",\
            "volcano.sh/job-name":"bench-%1$d","volcano.sh/task-spec":"work","volcano.sh/job-namespace":"default",\
            "volcano.sh/queue-name":"default"},"annotations":{"volcano.sh/task-index":"%2$d","volcano.sh/task-spec":"work",\
            "scheduling.k8s.io/group-name":"bench-%1$d","volcano.sh/job-name":"bench-%1$d","volcano.sh/queue-name":"default",\
            "volcano.sh/job-version":"0","volcano.sh/template-uid":"bench-%1$d-work","volcano.sh/job-retry-count":"0"},\
            "ownerReferences":[{"apiVersion":"batch.volcano.sh/v1alpha1","kind":"Job","name":"bench-%1$d","uid":"u-%1$d",\
            "controller":true,"blockOwnerDeletion":true}]},"spec":{"restartPolicy":"Never","schedulerName":"volcano",\
            "containers":[{"name":"work","image":"busybox","command":["sleep","1"],\
            "resources":{"requests":{"cpu":"1","memory":"64Mi"},"limits":{"cpu":"1","memory":"64Mi"}}}]}}""";

    /** A pod as the API server returns and watches send it, running. */
    private static final String POD = """
            {"apiVersion":"v1","kind":"Pod","metadata":{"name":"bench-7-work-3","namespace":"default",\
            "uid":"3f2a9c1e-0b7d-4c55-9d3e-1c2b3a4d5e6f","resourceVersion":"48213","creationTimestamp":"2026-12-05T10:00:00Z",\
            "labels":{"volcano.sh/task-index":"3","volcano.sh/job-name":"bench-7","volcano.sh/task-spec":"work",\
            "volcano.sh/job-namespace":"default","volcano.sh/queue-name":"default","app.kubernetes.io/managed-by":"lahar"},\
            "annotations":{"volcano.sh/task-index":"3","scheduling.k8s.io/group-name":"bench-7","volcano.sh/job-version":"0",\
            "lahar.io/job-uid":"u-7"},"ownerReferences":[{"apiVersion":"batch.volcano.sh/v1alpha1","kind":"Job",\
            "name":"bench-7","uid":"u-7","controller":true,"blockOwnerDeletion":true}]},\
            "spec":{"restartPolicy":"Never","schedulerName":"volcano","nodeName":"node-42","containers":[{"name":"work",\
            "image":"busybox","command":["sleep","1"],"resources":{"requests":{"cpu":"1","memory":"64Mi"},\
            "limits":{"cpu":"1","memory":"64Mi"}}}]},"status":{"phase":"Running","hostIP":"10.0.0.42","podIP":"10.1.0.9",\
            "startTime":"2026-12-05T10:00:01Z","conditions":[{"type":"PodScheduled","status":"True",\
            "lastTransitionTime":"2026-12-05T10:00:00Z"},{"type":"Initialized","status":"True",\
            "lastTransitionTime":"2026-12-05T10:00:01Z"},{"type":"Ready","status":"True",\
            "lastTransitionTime":"2026-12-05T10:00:01Z"}],"containerStatuses":[{"name":"work","ready":true,\
            "restartCount":0,"image":"busybox","imageID":"","started":true,"state":{"running":\
            {"startedAt":"2026-12-05T10:00:01Z"}}}]}}""";

    private static final String EVENT = "{\"type\":\"MODIFIED\",\"object\":" + POD + "}";

    private static final String MANAGED_EVENT = "{\"type\":\"MODIFIED\",\"object\":" + WatchedPodJson.RUNNING + "}";

    private BridgeJsonBench() {}

    public static void main(String[] args) {
        int ops = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 8;
        only = args.length > 2 ? args[2] : "";
        ObjectMapper beforeMapper = new ObjectMapper();
        KubernetesSerialization before = new KubernetesSerialization(beforeMapper, true);
        beforeMapper.registerModule(new BlackbirdModule());
        ObjectMapper afterMapper = new ObjectMapper();
        KubernetesSerialization after = new KubernetesSerialization(afterMapper, true);
        KubernetesJson.fast(afterMapper);
        PodTemplates templates = new PodTemplates();
        List<PodIntent> intents = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            intents.add(TestIntents.create(
                    "default", "bench-" + i / 100, "work", i % 100, 0, TEMPLATE.formatted(i / 100, i % 100)));
        }
        compare(
                "pod made from its intent and written",
                ops,
                rounds,
                i -> {
                    PodIntent intent = intents.get(i % intents.size());
                    sink(before.asJson(TestPods.parsedAlone(intent, (CreatePod) intent.getIntent(), Optional.empty())));
                },
                i -> {
                    PodIntent intent = intents.get(i % intents.size());
                    sink(after.asJson(Pods.pod(intent, (CreatePod) intent.getIntent(), Optional.empty(), templates)));
                });
        compare(
                "watch event of a pod read",
                ops,
                rounds,
                i -> sink(before.unmarshal(EVENT, WatchEvent.class)),
                i -> sink(after.unmarshal(EVENT, WatchEvent.class)));
        // As the informer reads a watch event (fabric8's AbstractWatchManager): the text to a WatchEvent.
        KubernetesSerialization podWatch = ManagedPods.serialization();
        compare(
                "managed pod's watch event read (2.3 KB)",
                ops,
                rounds,
                i -> sink(before.unmarshal(MANAGED_EVENT, WatchEvent.class)),
                i -> sink(podWatch.unmarshal(MANAGED_EVENT, WatchEvent.class)));
        compare(
                "managed pod's watch event, whole/slim",
                ops,
                rounds,
                i -> sink(after.unmarshal(MANAGED_EVENT, WatchEvent.class)),
                i -> sink(podWatch.unmarshal(MANAGED_EVENT, WatchEvent.class)));
        compare(
                "pod read from an answer",
                ops,
                rounds,
                i -> sink(before.unmarshal(POD, Pod.class)),
                i -> sink(after.unmarshal(POD, Pod.class)));
        System.out.println("sink " + sunk);
    }

    private static long sunk;

    private static void sink(Object o) {
        sunk += o.hashCode() & 1;
    }

    /** Only the cases whose name has this in it (the third argument). */
    private static String only;

    private static void compare(String what, int ops, int rounds, IntConsumer before, IntConsumer after) {
        if (!what.contains(only)) {
            return;
        }
        long[] b = new long[rounds];
        long[] a = new long[rounds];
        // The first pair warms up, and is not counted.
        run(before, ops);
        run(after, ops);
        for (int r = 0; r < rounds; r++) {
            b[r] = run(before, ops) / ops;
            a[r] = run(after, ops) / ops;
        }
        java.util.Arrays.sort(b);
        java.util.Arrays.sort(a);
        long mb = b[rounds / 2];
        long ma = a[rounds / 2];
        System.out.printf("%-40s before %7d ns  after %7d ns  after/before %.2f%n", what, mb, ma, (double) ma / mb);
    }

    private static long run(IntConsumer op, int ops) {
        long start = THREADS.getCurrentThreadCpuTime();
        for (int i = 0; i < ops; i++) {
            op.accept(i);
        }
        return THREADS.getCurrentThreadCpuTime() - start;
    }
}
