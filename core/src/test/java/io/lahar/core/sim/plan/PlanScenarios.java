package io.lahar.core.sim.plan;

import io.lahar.core.scheduling.api.Problem;
import io.lahar.core.scheduling.framework.SchedulerConf;
import java.util.ArrayList;
import java.util.List;

/** YAML builders for plan scenarios. */
final class PlanScenarios {
    private PlanScenarios() {}

    static final String PREEMPT_CONF = """
            actions: "enqueue, allocate, preempt, backfill"
            tiers:
            - plugins:
              - name: priority
              - name: gang
              - name: conformance
            - plugins:
              - name: overcommit
              - name: drf
              - name: predicates
              - name: proportion
              - name: nodeorder
              - name: binpack
            """;

    static final String RECLAIM_CONF =
            PREEMPT_CONF.replace("enqueue, allocate, preempt, backfill", "enqueue, allocate, reclaim, backfill");

    static String node(String name, String cpu, String extra) {
        return """
                apiVersion: v1
                kind: Node
                metadata:
                  name: %s
                %s
                status:
                  allocatable: {cpu: "%s", memory: 64Gi, pods: "110"}
                ---
                """.formatted(name, extra, cpu);
    }

    static String nodes(int n, String cpu) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) b.append(node("n" + i, cpu, ""));
        return b.toString();
    }

    static String queue(String name, int weight, String extra) {
        return """
                apiVersion: scheduling.volcano.sh/v1beta1
                kind: Queue
                metadata:
                  name: %s
                spec:
                  weight: %d
                %s
                ---
                """.formatted(name, weight, extra);
    }

    static String priorityClass(String name, int value) {
        return """
                apiVersion: scheduling.k8s.io/v1
                kind: PriorityClass
                metadata:
                  name: %s
                value: %d
                ---
                """.formatted(name, value);
    }

    /** A job of one task "w" with {@code replicas} pods of {@code cpu} each. */
    static String job(
            String name,
            String queue,
            int replicas,
            int minAvailable,
            String cpu,
            String created,
            String extraSpec,
            String podSpecExtra) {
        return """
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata:
                  name: %s
                  creationTimestamp: "%s"
                spec:
                  queue: %s
                  minAvailable: %d
                %s
                  tasks:
                  - name: w
                    replicas: %d
                    template:
                      spec:
                %s
                        containers:
                        - name: c
                          image: busybox
                          resources: {requests: {cpu: "%s", memory: 1Gi}}
                ---
                """.formatted(
                name, created, queue, minAvailable, indent(extraSpec, 2), replicas, indent(podSpecExtra, 8), cpu);
    }

    /** A running pod of job {@code job}, task w, on {@code node}. */
    static String pod(String job, int index, String node, String cpu, String priorityClass, String extraMeta) {
        return """
                apiVersion: v1
                kind: Pod
                metadata:
                  name: %s-w-%d
                  labels: {volcano.sh/job-name: %s, volcano.sh/task-spec: w}
                  annotations: {scheduling.k8s.io/group-name: %s, volcano.sh/task-spec: w}
                %s
                spec:
                  nodeName: %s
                  priorityClassName: %s
                  containers:
                  - name: c
                    image: busybox
                    resources: {requests: {cpu: "%s", memory: 1Gi}}
                status:
                  phase: Running
                ---
                """.formatted(job, index, job, job, indent(extraMeta, 2), node, priorityClass, cpu);
    }

    static String runningGroup(String name, String queue, int minMember, String priorityClass) {
        return """
                apiVersion: scheduling.volcano.sh/v1beta1
                kind: PodGroup
                metadata:
                  name: %s
                spec:
                  minMember: %d
                  queue: %s
                  priorityClassName: %s
                status:
                  phase: Running
                ---
                """.formatted(name, minMember, queue, priorityClass);
    }

    private static String indent(String s, int n) {
        if (s == null || s.isEmpty()) return "";
        String pad = " ".repeat(n);
        return s.lines().map(l -> pad + l).reduce((a, b) -> a + "\n" + b).orElse("");
    }

    static PlanReport plan(String yaml) {
        return plan(yaml, SchedulerConf.defaults(), null);
    }

    static PlanReport plan(String yaml, SchedulerConf conf, Integer sessions) {
        PlanInput in = PlanInput.read(List.of(new PlanInput.Source("snapshot.yaml", yaml)));
        List<Problem> problems = new ArrayList<>(in.problems());
        PlanWorld world = PlanWorld.build(in, problems);
        if (!problems.isEmpty()) throw new AssertionError("input problems: " + problems);
        return new Planner(conf).plan(world, sessions);
    }

    static long boundOf(PlanReport r, String job) {
        return r.bindings().stream().filter(b -> b.pod().startsWith(job + "-")).count();
    }

    static PlanReport.PodGroupStatus group(PlanReport r, String name) {
        return r.podGroups().stream()
                .filter(g -> g.name().equals(name))
                .findFirst()
                .orElseThrow();
    }

    /** The PodGroup of job {@code job} (no uid), already past enqueue. */
    static String inqueue(String job, String queue, int minMember) {
        return """
                apiVersion: scheduling.volcano.sh/v1beta1
                kind: PodGroup
                metadata:
                  name: %s
                spec:
                  minMember: %d
                  queue: %s
                status:
                  phase: Inqueue
                ---
                """.formatted(job, minMember, queue);
    }
}
