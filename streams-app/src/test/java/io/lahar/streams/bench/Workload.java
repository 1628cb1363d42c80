package io.lahar.streams.bench;

import io.lahar.schema.JobCommand;
import io.lahar.schema.PodEvent;
import io.lahar.schema.PodGroupStatus;
import io.lahar.schema.SchedulerDecision;
import io.lahar.schema.SubmitJob;
import io.lahar.schema.Topics;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The benchmark's jobs: N Volcano Jobs of one task with M replicas (gang of M), each run to
 * completion by 2·M pod events (every pod Running, then every pod Succeeded), as the bridge would
 * report them. Names carry the run id so a shared broker's other records never count.
 *
 * <p>{@code interleaved}: the events of one job spread over the round (every job's first pod, then
 * every job's second, ...) instead of side by side (a job's pods one after the other).
 */
record Workload(String run, int jobs, int pods, long t0, boolean interleaved) {

    static final String NAMESPACE = "bench";
    static final String TASK = "worker";

    String jobName(int i) {
        return "b" + run + "-" + i;
    }

    /** The same workload under another run id (each round's jobs have names of their own). */
    Workload renamed(String newRun) {
        return new Workload(newRun, jobs, pods, t0, interleaved);
    }

    String key(int i) {
        return Topics.jobKey(NAMESPACE, jobName(i));
    }

    /** Whether a record key belongs to this run. */
    boolean owns(String key) {
        return key != null && key.startsWith(NAMESPACE + "/b" + run + "-");
    }

    String manifest(int i) {
        return """
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata:
                  name: %s
                  namespace: %s
                spec:
                  minAvailable: %d
                  tasks:
                  - name: %s
                    replicas: %d
                    template:
                      spec:
                        containers:
                        - name: %s
                          image: busybox
                          resources:
                            requests:
                              cpu: 100m
                              memory: 64Mi
                """.formatted(jobName(i), NAMESPACE, pods, TASK, pods, TASK);
    }

    JobCommand submit(int i) {
        return JobCommand.newBuilder()
                .setRequestId("bench-" + run + "-" + i)
                .setSender("bench")
                .setNamespace(NAMESPACE)
                .setName(jobName(i))
                .setTime(Instant.ofEpochMilli(t0))
                .setCommand(new SubmitJob(manifest(i)))
                .build();
    }

    /** The scheduler's answer to a pending gang: its pod group is Inqueue, so the pods are created. */
    SchedulerDecision inqueue(int i, String podGroup) {
        return SchedulerDecision.newBuilder()
                .setNamespace(NAMESPACE)
                .setJob(jobName(i))
                .setPodGroup(podGroup)
                .setEpoch(1)
                .setTime(Instant.ofEpochMilli(t0 + 1_000))
                .setDecision(PodGroupStatus.newBuilder().setPhase("Inqueue").build())
                .build();
    }

    /**
     * Every pod event of the run in send order: all jobs' pods Running, then all Succeeded — the
     * jobs run side by side, as on a cluster, rather than one after the other. A job's pods come one
     * after the other (its gang starts together), or, {@link #interleaved}, one pod of each job in
     * turn: then a commit interval sees each job's events one or two at a time, as when pods start
     * and finish at their own pace, and each job's entry and status are written that much more often.
     */
    List<Keyed<PodEvent>> podEvents(java.util.Map<Integer, String> jobUids) {
        List<Keyed<PodEvent>> events = new ArrayList<>(2 * jobs * pods);
        for (String phase : List.of("Running", "Succeeded")) {
            long time = t0 + (phase.equals("Running") ? 2_000 : 60_000);
            for (int n = 0; n < jobs * pods; n++) {
                int i = interleaved ? n % jobs : n / pods;
                int p = interleaved ? n / jobs : n % pods;
                events.add(new Keyed<>(key(i), podEvent(i, p, phase, jobUids.get(i), time)));
            }
        }
        return events;
    }

    private PodEvent podEvent(int i, int index, String phase, String jobUid, long time) {
        String pod = jobName(i) + "-" + TASK + "-" + index;
        boolean done = phase.equals("Succeeded");
        return PodEvent.newBuilder()
                .setNamespace(NAMESPACE)
                .setJob(jobName(i))
                .setPod(pod)
                .setUid(pod + "-uid")
                .setJobUid(jobUid)
                .setTask(TASK)
                .setIndex(index)
                .setJobVersion(0)
                .setPhase(phase)
                .setNode("node-" + (index % 16))
                .setContainers(List.of(io.lahar.schema.ContainerStatus.newBuilder()
                        .setName(TASK)
                        .setExitCode(done ? 0 : null)
                        .setReason(done ? "Completed" : null)
                        .build()))
                .setTime(Instant.ofEpochMilli(time))
                .build();
    }

    /** A value with its record key. */
    record Keyed<T>(String key, T value) {}
}
