package io.lahar.console.view;

import io.lahar.schema.ContainerStatus;
import io.lahar.schema.DeadLetter;
import io.lahar.schema.FlowCondition;
import io.lahar.schema.FlowJobStatus;
import io.lahar.schema.JobCondition;
import io.lahar.schema.JobFlowState;
import io.lahar.schema.JobFlowStatus;
import io.lahar.schema.JobFlowStatusRecord;
import io.lahar.schema.JobState;
import io.lahar.schema.JobStatus;
import io.lahar.schema.JobStatusRecord;
import io.lahar.schema.JobTransition;
import io.lahar.schema.Node;
import io.lahar.schema.PodEvent;
import io.lahar.schema.PodGroup;
import io.lahar.schema.PodGroupCondition;
import io.lahar.schema.PodGroupSpec;
import io.lahar.schema.PodGroupStatus;
import io.lahar.schema.Queue;
import io.lahar.schema.QueueStatus;
import io.lahar.schema.TaskState;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** Records of the contract as their writers send them, for the console's tests. */
public final class Fixtures {

    public static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");

    private Fixtures() {}

    /** A Volcano Job of two tasks: ps (1 pod, 1 cpu, 1Gi) and worker (replicas pods, 500m, 2Gi). */
    public static String manifest(String ns, String name, String queue, int workers, String flow) {
        String annotations = flow == null ? "{}" : "{\"volcano.sh/createdByJobFlow\":\"" + flow + "\"}";
        return """
                {"apiVersion":"batch.volcano.sh/v1alpha1","kind":"Job",
                 "metadata":{"name":"%s","namespace":"%s","annotations":%s},
                 "spec":{"queue":"%s","minAvailable":%d,"maxRetry":3,"tasks":[
                   {"name":"ps","replicas":1,"template":{"spec":{"containers":[{"name":"ps","image":"x",
                     "resources":{"requests":{"cpu":"1","memory":"1Gi"}}}]}}},
                   {"name":"worker","replicas":%d,"template":{"spec":{"containers":[{"name":"w","image":"x",
                     "resources":{"requests":{"cpu":"500m","memory":"2Gi"}}}]}}}]}}
                """.formatted(name, ns, annotations, queue, workers + 1, workers);
    }

    public static JobStatusRecord job(
            String ns, String name, String queue, String phase, Instant created, Instant time) {
        return job(ns, name, queue, phase, created, time, 2, null);
    }

    public static JobStatusRecord job(
            String ns,
            String name,
            String queue,
            String phase,
            Instant created,
            Instant time,
            int workers,
            String flow) {
        List<JobCondition> conditions = new java.util.ArrayList<>();
        conditions.add(new JobCondition("Pending", created));
        if (!phase.equals("Pending")) {
            conditions.add(new JobCondition("Running", created.plusSeconds(5)));
        }
        if (!phase.equals("Pending") && !phase.equals("Running")) {
            conditions.add(new JobCondition(phase, time));
        }
        JobStatus status = JobStatus.newBuilder()
                .setState(JobState.newBuilder()
                        .setPhase(phase)
                        .setReason(phase.equals("Pending") ? "NotEnoughResources" : null)
                        .setMessage(
                                phase.equals("Pending") ? "3/3 tasks in gang unschedulable: Insufficient cpu" : null)
                        .setLastTransitionTime(time)
                        .build())
                .setMinAvailable(workers + 1)
                .setRunning(phase.equals("Running") ? workers + 1 : 0)
                .setSucceeded(phase.equals("Completed") ? workers + 1 : 0)
                .setPending(phase.equals("Pending") ? workers + 1 : 0)
                .setTaskStatusCount(Map.of(
                        "worker", new TaskState(Map.of(phase.equals("Running") ? "Running" : "Pending", workers))))
                .setRunningDuration(phase.equals("Completed") ? 55_000L : null)
                .setConditions(conditions)
                .build();
        return JobStatusRecord.newBuilder()
                .setNamespace(ns)
                .setName(name)
                .setUid("uid-" + name)
                .setQueue(queue)
                .setManifest(manifest(ns, name, queue, workers, flow))
                .setStatus(status)
                .setTime(time)
                .build();
    }

    public static JobTransition transition(
            String ns,
            String name,
            String from,
            String to,
            String event,
            String action,
            String policy,
            long sourceOffset,
            Instant time) {
        return JobTransition.newBuilder()
                .setNamespace(ns)
                .setName(name)
                .setFrom(from)
                .setTo(to)
                .setEvent(event)
                .setAction(action)
                .setPolicy(policy)
                .setVersion(0)
                .setRetryCount(0)
                .setTime(time)
                .setSourceTopic("lahar.pod-events")
                .setSourcePartition(2)
                .setSourceOffset(sourceOffset)
                .build();
    }

    public static PodEvent pod(
            String ns, String job, String task, int index, String phase, String node, Integer exit, Instant time) {
        return PodEvent.newBuilder()
                .setNamespace(ns)
                .setJob(job)
                .setPod(job + "-" + task + "-" + index)
                .setJobUid("uid-" + job)
                .setTask(task)
                .setIndex(index)
                .setJobVersion(0)
                .setPhase(phase)
                .setNode(node)
                .setContainers(List.of(ContainerStatus.newBuilder()
                        .setName("main")
                        .setExitCode(exit)
                        .setReason(exit == null ? null : exit == 0 ? "Completed" : "Error")
                        .setRestartCount(1)
                        .build()))
                .setTime(time)
                .build();
    }

    public static Node node(String name, String cpu, String memory) {
        return Node.newBuilder()
                .setName(name)
                .setAllocatable(Map.of("cpu", cpu, "memory", memory, "pods", "110"))
                .setCapacity(Map.of("cpu", cpu, "memory", memory, "pods", "110"))
                .setTaints(List.of(new io.lahar.schema.Taint("gpu", "true", "NoSchedule")))
                .setTime(T0)
                .build();
    }

    public static Queue queue(String name, String parent, int weight, Map<String, String> capability) {
        return Queue.newBuilder()
                .setName(name)
                .setState(io.lahar.schema.QueueState.Open)
                .setParent(parent)
                .setWeight(weight)
                .setCapability(capability)
                .setGuarantee(Map.of("cpu", "1"))
                .setTime(T0)
                .build();
    }

    public static QueueStatus queueStatus(
            String name, int running, Map<String, String> allocated, Map<String, String> deserved) {
        return QueueStatus.newBuilder()
                .setName(name)
                .setState(io.lahar.schema.QueueState.Open)
                .setRunning(running)
                .setPending(1)
                .setAllocated(allocated)
                .setDeserved(deserved)
                .setTime(T0)
                .build();
    }

    public static PodGroup podGroup(String ns, String job, String queue, String phase, String reason) {
        List<PodGroupCondition> conditions = reason == null
                ? List.of()
                : List.of(PodGroupCondition.newBuilder()
                        .setType("Unschedulable")
                        .setStatus("True")
                        .setReason(reason)
                        .setMessage("0/3 nodes are available")
                        .setLastTransitionTime(T0)
                        .build());
        return PodGroup.newBuilder()
                .setNamespace(ns)
                .setName(job)
                .setJob(job)
                .setJobUid("uid-" + job)
                .setJobVersion(0)
                .setCreationTimestamp(T0)
                .setSpec(PodGroupSpec.newBuilder()
                        .setMinMember(3)
                        .setQueue(queue)
                        .setPriority(0)
                        .build())
                .setStatus(PodGroupStatus.newBuilder()
                        .setPhase(phase)
                        .setConditions(conditions)
                        .build())
                .setTime(T0)
                .build();
    }

    /** The seed's DAG a → b → {c, d} → e, with a Completed, b Running, the rest waiting. */
    public static JobFlowStatusRecord flow(String ns, String name, String bPhase) {
        String manifest = """
                {"apiVersion":"flow.volcano.sh/v1alpha1","kind":"JobFlow","metadata":{"name":"%s","namespace":"%s"},
                 "spec":{"jobRetainPolicy":"retain","flows":[{"name":"a"},{"name":"b","dependsOn":{"targets":["a"]}},
                 {"name":"c","dependsOn":{"targets":["b"]}},{"name":"d","dependsOn":{"targets":["b"]}},
                 {"name":"e","dependsOn":{"targets":["c","d"]}}]}}
                """.formatted(name, ns);
        JobFlowStatus status = JobFlowStatus.newBuilder()
                .setCompletedJobs(List.of(name + "-a"))
                .setRunningJobs(List.of(name + "-b"))
                .setJobStatusList(List.of(
                        FlowJobStatus.newBuilder()
                                .setName(name + "-a")
                                .setState("Completed")
                                .setStartTimestamp(T0)
                                .setEndTimestamp(T0.plusSeconds(30))
                                .setRunningHistories(List.of())
                                .build(),
                        FlowJobStatus.newBuilder()
                                .setName(name + "-b")
                                .setState(bPhase)
                                .setStartTimestamp(T0.plusSeconds(31))
                                .setRunningHistories(List.of())
                                .build()))
                .setConditions(Map.of(
                        name + "-a",
                        FlowCondition.newBuilder()
                                .setPhase("Completed")
                                .setCreateTime(T0)
                                .build(),
                        name + "-b",
                        FlowCondition.newBuilder()
                                .setPhase(bPhase)
                                .setCreateTime(T0.plusSeconds(31))
                                .build()))
                .setState(new JobFlowState("Running"))
                .build();
        return JobFlowStatusRecord.newBuilder()
                .setNamespace(ns)
                .setName(name)
                .setManifest(manifest)
                .setStatus(status)
                .setTime(T0.plusSeconds(40))
                .build();
    }

    public static DeadLetter deadLetter(String topic, int partition, long offset, String key, String error) {
        return DeadLetter.newBuilder()
                .setTopic(topic)
                .setPartition(partition)
                .setOffset(offset)
                .setTimestamp(T0)
                .setKey(key == null ? null : ByteBuffer.wrap(key.getBytes(StandardCharsets.UTF_8)))
                .setValue(ByteBuffer.wrap(new byte[] {1, 2, 3}))
                .setError(error)
                .setProcessor("streams-app")
                .build();
    }
}
