package io.lahar.scheduler.bench;

import io.lahar.schema.CreatePod;
import io.lahar.schema.Node;
import io.lahar.schema.PodGroup;
import io.lahar.schema.PodGroupSpec;
import io.lahar.schema.PodGroupStatus;
import io.lahar.schema.PodIntent;
import io.lahar.schema.PriorityClass;
import io.lahar.schema.Queue;
import io.lahar.schema.QueueState;
import io.lahar.schema.Topics;
import io.lahar.schema.serde.RegistrySerdes;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The end-to-end benchmark's cluster, drawn like the core's placement benchmark
 * ({@code core/src/test/.../scheduling/bench/Workload}, same seed, same shapes): nodes of 32, 64
 * and 96 cpu (4 GiB per cpu, 110 pods) in four zones; gangs of 1 to 64 pods (minMember the whole
 * gang), each gang one request drawn from 500m/1/2/4 cpu × 1/2/4/8 GiB, priority 0/10/100 (a
 * PriorityClass of each value, which the gang and its pods name), spread
 * round-robin over three queues weighted 1:2:3, until {@code pods} pods exist. Names carry the
 * run, so runs on one broker never share a key.
 */
record BenchWorkload(String run, int nodes, int pods, long seed, List<Gang> gangList) {
    static final String NAMESPACE = "bench";
    static final String[] QUEUES = {"q1", "q2", "q3"};
    private static final String[] CPU = {"500m", "1", "2", "4"};
    private static final String[] MEMORY = {"1Gi", "2Gi", "4Gi", "8Gi"};
    private static final int[] NODE_CPU = {32, 64, 96};
    private static final int[] PRIORITY = {0, 10, 100};
    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");

    /** One gang: its index (creation order), size, request and priority. */
    record Gang(int index, int size, String cpu, String memory, int priority) {}

    BenchWorkload(String run, int nodes, int pods, long seed) {
        this(run, nodes, pods, seed, draw(pods, seed));
    }

    private static List<Gang> draw(int pods, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        List<Gang> out = new ArrayList<>();
        int n = 0;
        for (int j = 0; n < pods; j++) {
            int size = Math.min(1 + rnd.nextInt(64), pods - n);
            out.add(new Gang(
                    j,
                    size,
                    CPU[rnd.nextInt(CPU.length)],
                    MEMORY[rnd.nextInt(MEMORY.length)],
                    PRIORITY[rnd.nextInt(PRIORITY.length)]));
            n += size;
        }
        return List.copyOf(out);
    }

    int gangs() {
        return gangList.size();
    }

    /** The pods' schedulerName: this run's scheduler places them and no other. */
    String schedulerName() {
        return "bench-" + run;
    }

    String queue(int gang) {
        return QUEUES[gang % QUEUES.length] + "-" + run;
    }

    String job(int gang) {
        return String.format("job-%s-%05d", run, gang);
    }

    List<ProducerRecord<String, byte[]>> queues(RegistrySerdes serdes) {
        var ser = serdes.value(Queue.class).serializer();
        String topic = Topics.QUEUES.name();
        List<ProducerRecord<String, byte[]>> out = new ArrayList<>();
        for (int q = 0; q < QUEUES.length; q++) {
            String name = QUEUES[q] + "-" + run;
            Queue queue = Queue.newBuilder()
                    .setName(name)
                    .setWeight(q + 1)
                    .setState(QueueState.Open)
                    .setTime(T0)
                    .build();
            out.add(new ProducerRecord<>(topic, name, ser.serialize(topic, queue)));
        }
        return out;
    }

    String priorityClass(int priority) {
        return "prio-" + priority + "-" + run;
    }

    List<ProducerRecord<String, byte[]>> priorityClasses(RegistrySerdes serdes) {
        var ser = serdes.value(PriorityClass.class).serializer();
        String topic = Topics.PRIORITY_CLASSES.name();
        List<ProducerRecord<String, byte[]>> out = new ArrayList<>();
        for (int p : PRIORITY) {
            PriorityClass pc = PriorityClass.newBuilder()
                    .setName(priorityClass(p))
                    .setValue(p)
                    .setTime(T0)
                    .build();
            out.add(new ProducerRecord<>(topic, pc.getName(), ser.serialize(topic, pc)));
        }
        return out;
    }

    List<ProducerRecord<String, byte[]>> nodeRecords(RegistrySerdes serdes) {
        var ser = serdes.value(Node.class).serializer();
        String topic = Topics.NODES.name();
        List<ProducerRecord<String, byte[]>> out = new ArrayList<>(nodes);
        for (int i = 0; i < nodes; i++) {
            int cpu = NODE_CPU[i % NODE_CPU.length];
            Map<String, String> allocatable =
                    Map.of("cpu", Integer.toString(cpu), "memory", (cpu * 4) + "Gi", "pods", "110");
            String name = String.format("node-%s-%06d", run, i);
            Node node = Node.newBuilder()
                    .setName(name)
                    .setAllocatable(allocatable)
                    .setCapacity(allocatable)
                    .setLabels(Map.of("zone", "z" + (i % 4)))
                    .setTaints(List.of())
                    .setUnschedulable(false)
                    .setReady(true)
                    .setTime(T0)
                    .build();
            out.add(new ProducerRecord<>(topic, name, ser.serialize(topic, node)));
        }
        return out;
    }

    /** Each gang's pod group (Pending, as the lifecycle engine writes it), then its pods' intents. */
    void gangRecords(RegistrySerdes serdes, Consumer<ProducerRecord<String, byte[]>> send) {
        var groups = serdes.value(PodGroup.class).serializer();
        var intents = serdes.value(PodIntent.class).serializer();
        String groupTopic = Topics.POD_GROUPS.name();
        String intentTopic = Topics.POD_INTENTS.name();
        for (Gang g : gangList) {
            String job = job(g.index());
            String key = Topics.jobKey(NAMESPACE, job);
            PodGroup group = PodGroup.newBuilder()
                    .setNamespace(NAMESPACE)
                    .setName(job + "-pg")
                    .setJob(job)
                    .setJobVersion(0)
                    .setCreationTimestamp(T0.plusMillis(g.index()))
                    .setSpec(PodGroupSpec.newBuilder()
                            .setMinMember(g.size())
                            .setQueue(queue(g.index()))
                            .setPriorityClassName(priorityClass(g.priority()))
                            .setPriority(g.priority())
                            .build())
                    .setStatus(PodGroupStatus.newBuilder()
                            .setPhase("Pending")
                            .setConditions(List.of())
                            .build())
                    .setTime(T0)
                    .build();
            send.accept(new ProducerRecord<>(groupTopic, key, groups.serialize(groupTopic, group)));
            for (int p = 0; p < g.size(); p++) {
                CreatePod pod = CreatePod.newBuilder()
                        .setPod(job + "-worker-" + p)
                        .setTask("worker")
                        .setIndex(p)
                        .setJobVersion(0)
                        .setPodGroup(job + "-pg")
                        .setSchedulerName(schedulerName())
                        .setTemplate("{}")
                        .setRequests(Map.of("cpu", g.cpu(), "memory", g.memory()))
                        .setPriorityClassName(priorityClass(g.priority()))
                        .setPriority(g.priority())
                        .build();
                PodIntent intent = PodIntent.newBuilder()
                        .setNamespace(NAMESPACE)
                        .setJob(job)
                        .setTime(T0)
                        .setIntent(pod)
                        .build();
                send.accept(new ProducerRecord<>(intentTopic, key, intents.serialize(intentTopic, intent)));
            }
        }
    }

    static KafkaProducer<String, byte[]> producer(String bootstrap) {
        return new KafkaProducer<>(
                Map.of(
                        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        bootstrap,
                        ProducerConfig.ACKS_CONFIG,
                        "all",
                        ProducerConfig.LINGER_MS_CONFIG,
                        5,
                        ProducerConfig.BATCH_SIZE_CONFIG,
                        256 * 1024),
                new StringSerializer(),
                new ByteArraySerializer());
    }
}
