package io.lahar.scheduler;

import io.lahar.schema.CreatePod;
import io.lahar.schema.DeletePod;
import io.lahar.schema.Node;
import io.lahar.schema.PodEvent;
import io.lahar.schema.PodGroup;
import io.lahar.schema.PodGroupSpec;
import io.lahar.schema.PodGroupStatus;
import io.lahar.schema.PodIntent;
import io.lahar.schema.Queue;
import io.lahar.schema.QueueState;
import io.lahar.schema.Taint;
import io.lahar.schema.Toleration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Input records as the other services write them, for the tests. */
public final class Records {
    public static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");

    private Records() {}

    public static Node node(String name, String cpu, String memory, Map<String, String> labels, List<Taint> taints) {
        return Node.newBuilder()
                .setName(name)
                .setAllocatable(Map.of("cpu", cpu, "memory", memory))
                .setCapacity(Map.of("cpu", cpu, "memory", memory))
                .setLabels(labels)
                .setTaints(taints)
                .setUnschedulable(false)
                .setReady(true)
                .setTime(T0)
                .build();
    }

    public static Queue queue(String name, int weight) {
        return Queue.newBuilder()
                .setName(name)
                .setWeight(weight)
                .setState(QueueState.Open)
                .setTime(T0)
                .build();
    }

    public static PodGroup podGroup(String ns, String job, String queue, int minMember, String phase, long created) {
        return PodGroup.newBuilder()
                .setNamespace(ns)
                .setName(job + "-pg")
                .setJob(job)
                .setJobVersion(0)
                .setCreationTimestamp(T0.plusMillis(created))
                .setSpec(PodGroupSpec.newBuilder()
                        .setMinMember(minMember)
                        .setQueue(queue)
                        .build())
                .setStatus(PodGroupStatus.newBuilder()
                        .setPhase(phase)
                        .setConditions(List.of())
                        .build())
                .setTime(T0)
                .build();
    }

    public static CreatePod.Builder createPod(String job, String task, int index, String scheduler, String cpu) {
        return CreatePod.newBuilder()
                .setPod(job + "-" + task + "-" + index)
                .setTask(task)
                .setIndex(index)
                .setJobVersion(0)
                .setPodGroup(job + "-pg")
                .setSchedulerName(scheduler)
                .setTemplate("{}")
                .setRequests(Map.of("cpu", cpu, "memory", "1Gi"));
    }

    public static PodIntent intent(String ns, String job, Object intent) {
        return PodIntent.newBuilder()
                .setNamespace(ns)
                .setJob(job)
                .setTime(T0)
                .setIntent(intent)
                .build();
    }

    public static PodIntent deletePod(String ns, String job, String pod) {
        return intent(
                ns,
                job,
                DeletePod.newBuilder()
                        .setPod(pod)
                        .setJobVersion(0)
                        .setReason("test")
                        .build());
    }

    public static PodEvent podEvent(String ns, String job, String pod, String phase, String node, boolean deleted) {
        return PodEvent.newBuilder()
                .setNamespace(ns)
                .setJob(job)
                .setPod(pod)
                .setTask("t")
                .setIndex(0)
                .setJobVersion(0)
                .setPhase(phase)
                .setNode(node)
                .setDeleted(deleted)
                .setContainers(new ArrayList<>())
                .setTime(T0)
                .build();
    }

    public static Toleration tolerate(String key, String value) {
        return Toleration.newBuilder()
                .setKey(key)
                .setOperator("Equal")
                .setValue(value)
                .setEffect("NoSchedule")
                .build();
    }

    public static Taint taint(String key, String value) {
        return Taint.newBuilder()
                .setKey(key)
                .setValue(value)
                .setEffect("NoSchedule")
                .build();
    }

    /** A record written and read back as Avro binary, as a consumer gets it (its strings Utf8). */
    @SuppressWarnings("unchecked")
    public static <T extends org.apache.avro.specific.SpecificRecord> T roundTrip(T record) {
        try {
            java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
            org.apache.avro.io.BinaryEncoder encoder =
                    org.apache.avro.io.EncoderFactory.get().binaryEncoder(bytes, null);
            new org.apache.avro.specific.SpecificDatumWriter<T>(record.getSchema()).write(record, encoder);
            encoder.flush();
            return new org.apache.avro.specific.SpecificDatumReader<T>((Class<T>) record.getClass())
                    .read(null, org.apache.avro.io.DecoderFactory.get().binaryDecoder(bytes.toByteArray(), null));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
