package io.lahar.scheduler.bench;

import io.lahar.schema.JobCondition;
import io.lahar.schema.JobState;
import io.lahar.schema.JobStatus;
import io.lahar.schema.JobStatusRecord;
import io.lahar.schema.PodEvent;
import io.lahar.schema.TaskState;
import io.lahar.schema.serde.RegistrySerdes;
import io.lahar.schema.serde.SpecificAvroDeserializer;
import io.lahar.testkit.LaharInfra;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.function.IntSupplier;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;

/**
 * CPU per record of the Avro serdes, before ({@code RegistrySerdes} up to 0.1: the registry's
 * generic serde, then {@link SpecificAvroDeserializer} re-encoding and resolving into the generated
 * class) and after ({@code RegistrySerdes.value}: the caching serializer and deserializer). Not a
 * test: {@code mvn verify} never runs it. Run against a registry (e.g. one {@code bin/infra} started):
 *
 * <pre>
 * java -cp scheduler-service/target/test-classes:scheduler-service/target/classes:schemas/target/classes:\
 *   core/target/classes:testkit/target/classes:$(cat scheduler-service/target/bench-classpath.txt) \
 *   -Dlahar.registry.url=$REGISTRY_URL -Dlahar.kafka.bootstrap=$KAFKA_BOOTSTRAP \
 *   io.lahar.scheduler.bench.SerdeCostBench [records]
 * </pre>
 *
 * <p>Untimed: 1,000 distinct JobStatusRecords and PodEvents, written once by the registry serde (so
 * both paths read the same bytes, and the registry has every schema id cached). Timed, on this
 * thread's CPU clock: {@code records} decodes (or encodes) cycling through them, five rounds per
 * path, the best round reported (the first rounds are the JIT's).
 */
public final class SerdeCostBench {
    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private static final int DISTINCT = 1_000;
    private static final int ROUNDS = 5;
    private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

    public static void main(String[] args) {
        int records = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        String registryUrl = System.getProperty(LaharInfra.REGISTRY_URL_PROPERTY);
        if (registryUrl == null) registryUrl = LaharInfra.shared().registryUrl();
        RegistrySerdes serdes = new RegistrySerdes(registryUrl);
        String run = UUID.randomUUID().toString().substring(0, 8);

        List<JobStatusRecord> statuses = new ArrayList<>();
        List<PodEvent> events = new ArrayList<>();
        for (int i = 0; i < DISTINCT; i++) {
            statuses.add(status("job-" + i, i % 7));
            events.add(podEvent(
                    "job-" + i / 8, "job-" + i / 8 + "-worker-" + i % 8, i % 3 == 0 ? "Succeeded" : "Running"));
        }
        System.out.printf(
                Locale.ROOT,
                "%-34s %10s %10s %8s%n",
                "per record (best of " + ROUNDS + " x " + records + ")",
                "before ns",
                "after ns",
                "speed-up");
        decode(serdes, "JobStatusRecord decode", JobStatusRecord.class, "bench-status-" + run, statuses, records);
        decode(serdes, "PodEvent decode", PodEvent.class, "bench-events-" + run, events, records);
        encode(serdes, "JobStatusRecord encode", JobStatusRecord.class, "bench-status-" + run, statuses, records);
        encode(serdes, "PodEvent encode", PodEvent.class, "bench-events-" + run, events, records);
        System.exit(0);
    }

    private static <T extends SpecificRecord> void decode(
            RegistrySerdes serdes, String label, Class<T> type, String topic, List<T> values, int records) {
        Serializer<Object> writer = serdes.genericSerde().serializer();
        byte[][] bytes = values.stream().map(v -> writer.serialize(topic, v)).toArray(byte[][]::new);
        Deserializer<T> before =
                new SpecificAvroDeserializer<>(type, serdes.genericSerde().deserializer());
        Deserializer<T> after = serdes.value(type).deserializer();
        for (int i = 0; i < DISTINCT; i++) {
            if (!before.deserialize(topic, bytes[i]).equals(after.deserialize(topic, bytes[i]))) {
                throw new IllegalStateException(label + ": the paths disagree on record " + i);
            }
        }
        report(
                label,
                best(
                        () -> {
                            int h = 0;
                            for (int i = 0; i < records; i++)
                                h += before.deserialize(topic, bytes[i % DISTINCT])
                                        .hashCode();
                            return h;
                        },
                        records),
                best(
                        () -> {
                            int h = 0;
                            for (int i = 0; i < records; i++)
                                h += after.deserialize(topic, bytes[i % DISTINCT])
                                        .hashCode();
                            return h;
                        },
                        records));
    }

    private static <T extends SpecificRecord> void encode(
            RegistrySerdes serdes, String label, Class<T> type, String topic, List<T> values, int records) {
        Serializer<Object> before = serdes.genericSerde().serializer();
        Serializer<T> after = serdes.value(type).serializer();
        for (T v : values) {
            if (!java.util.Arrays.equals(before.serialize(topic, v), after.serialize(topic, v))) {
                throw new IllegalStateException(label + ": the paths write different bytes for " + v);
            }
        }
        report(
                label,
                best(
                        () -> {
                            int h = 0;
                            for (int i = 0; i < records; i++)
                                h += before.serialize(topic, values.get(i % DISTINCT)).length;
                            return h;
                        },
                        records),
                best(
                        () -> {
                            int h = 0;
                            for (int i = 0; i < records; i++)
                                h += after.serialize(topic, values.get(i % DISTINCT)).length;
                            return h;
                        },
                        records));
    }

    /** The fewest CPU nanoseconds per record over the rounds; the checksum keeps the work alive. */
    private static double best(IntSupplier round, int records) {
        double best = Double.MAX_VALUE;
        long checksum = 0;
        for (int r = 0; r < ROUNDS; r++) {
            long t0 = CPU.getCurrentThreadCpuTime();
            checksum += round.getAsInt();
            best = Math.min(best, (CPU.getCurrentThreadCpuTime() - t0) / (double) records);
        }
        if (checksum == 42) System.out.print("");
        return best;
    }

    private static void report(String label, double before, double after) {
        System.out.printf(Locale.ROOT, "%-34s %10.0f %10.0f %7.1fx%n", label, before, after, before / after);
    }

    private static JobStatusRecord status(String name, int failed) {
        return JobStatusRecord.newBuilder()
                .setNamespace("default")
                .setName(name)
                .setUid("u-" + name)
                .setQueue("default")
                .setManifest("{\"apiVersion\":\"batch.volcano.sh/v1alpha1\",\"kind\":\"Job\",\"metadata\":{\"name\":\""
                        + name + "\"}}")
                .setTime(T0.plusSeconds(failed))
                .setStatus(JobStatus.newBuilder()
                        .setState(JobState.newBuilder()
                                .setPhase("Running")
                                .setReason("PodRunning")
                                .setLastTransitionTime(T0)
                                .build())
                        .setMinAvailable(6)
                        .setTaskStatusCount(Map.of(
                                "ps",
                                new TaskState(Map.of("Running", 1)),
                                "worker",
                                new TaskState(Map.of("Running", 5 - Math.min(failed, 5), "Failed", failed))))
                        .setRunning(6)
                        .setFailed(failed)
                        .setVersion(1)
                        .setRetryCount(failed)
                        .setConditions(List.of(
                                new JobCondition("Pending", T0.minusSeconds(60)), new JobCondition("Running", T0)))
                        .build())
                .build();
    }

    private static PodEvent podEvent(String job, String pod, String phase) {
        return PodEvent.newBuilder()
                .setNamespace("default")
                .setJob(job)
                .setPod(pod)
                .setUid("uid-" + pod)
                .setJobUid("uid-" + job)
                .setTask("worker")
                .setIndex(pod.length() % 8)
                .setJobVersion(0)
                .setPhase(phase)
                .setNode("node-" + pod.hashCode() % 64)
                .setTime(T0)
                .build();
    }
}
