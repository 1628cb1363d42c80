package io.lahar.system;

import io.lahar.schema.Bind;
import io.lahar.schema.CommandResult;
import io.lahar.schema.CreatePod;
import io.lahar.schema.CronJobCommand;
import io.lahar.schema.CronJobStatus;
import io.lahar.schema.CronJobStatusRecord;
import io.lahar.schema.DeletePod;
import io.lahar.schema.FlowCommand;
import io.lahar.schema.FlowKind;
import io.lahar.schema.JobAction;
import io.lahar.schema.JobActionCommand;
import io.lahar.schema.JobCommand;
import io.lahar.schema.JobFlowState;
import io.lahar.schema.JobFlowStatus;
import io.lahar.schema.JobFlowStatusRecord;
import io.lahar.schema.JobState;
import io.lahar.schema.JobStatus;
import io.lahar.schema.JobStatusRecord;
import io.lahar.schema.JobTemplate;
import io.lahar.schema.Node;
import io.lahar.schema.PodEvent;
import io.lahar.schema.PodGroup;
import io.lahar.schema.PodGroupSpec;
import io.lahar.schema.PodGroupStatus;
import io.lahar.schema.PodIntent;
import io.lahar.schema.PriorityClass;
import io.lahar.schema.Queue;
import io.lahar.schema.QueueState;
import io.lahar.schema.QueueStatus;
import io.lahar.schema.SchedulerDecision;
import io.lahar.schema.SubmitCronJob;
import io.lahar.schema.SubmitFlowObject;
import io.lahar.schema.Tick;
import io.lahar.schema.Topics;
import io.lahar.schema.WorkloadPod;
import io.lahar.schema.deadletter.Poison;
import io.lahar.schema.deadletter.Poison.Input;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The chaos suite's poison: every kind of {@link Poison} on every topic a service reads, written to
 * the running system, and which services must dead-letter each record.
 *
 * <p>On the topics of the job lifecycle (commands, pod events, decisions, pod intents) the poison is
 * keyed by a job that runs, and the valid record each kind is made of would hurt that job if anything
 * applied it (an AbortJob, a failed pod, a bind to a node that does not exist, the deletion of its
 * pod): a poison record that was not dead-lettered but applied shows in the job's phase, and the
 * replay of the job must pass over the same records the streams-app did. On the compacted topics the
 * poison names objects of its own, so a poison value never becomes the latest of a real object; a
 * phantom node, had the scheduler taken it, carries the simulated nodes' pool label and would draw
 * pods that never run.
 */
final class ChaosPoison {

    static final String STREAMS_APP = "streams-app";
    static final String SCHEDULER = "scheduler-service";
    static final String BRIDGE = "k8s-bridge";

    /** The topics each service reads (docs/topics.md, "read by"). */
    private static final Map<String, Set<Topics.TopicSpec>> READS = Map.of(
            STREAMS_APP,
                    Set.of(
                            Topics.JOB_COMMANDS,
                            Topics.POD_EVENTS,
                            Topics.SCHEDULER_DECISIONS,
                            Topics.CLOCK,
                            Topics.FLOW_COMMANDS,
                            Topics.FLOW_CLOCK,
                            Topics.CRONJOB_COMMANDS,
                            Topics.CRON_CLOCK,
                            Topics.COMMAND_RESULTS,
                            Topics.QUEUES,
                            Topics.JOB_TEMPLATES,
                            Topics.FLOW_STATUS),
            SCHEDULER,
                    Set.of(
                            Topics.NODES,
                            Topics.QUEUES,
                            Topics.POD_GROUPS,
                            Topics.POD_INTENTS,
                            Topics.POD_EVENTS,
                            Topics.WORKLOAD_PODS,
                            Topics.PRIORITY_CLASSES,
                            Topics.SCHEDULER_DECISIONS,
                            Topics.QUEUE_STATUS),
            BRIDGE,
                    Set.of(
                            Topics.POD_INTENTS,
                            Topics.SCHEDULER_DECISIONS,
                            Topics.POD_GROUPS,
                            Topics.JOB_STATUS,
                            Topics.COMMAND_RESULTS,
                            Topics.FLOW_STATUS,
                            Topics.QUEUE_STATUS,
                            Topics.CRONJOB_STATUS,
                            Topics.QUEUES,
                            Topics.JOB_TEMPLATES));

    /** One poison record as written: where it went, and who must dead-letter it with which reason. */
    record Sent(
            Poison kind,
            Topics.TopicSpec topic,
            String key,
            byte[] value,
            int partition,
            long offset,
            Set<String> readers,
            String reason) {
        @Override
        public String toString() {
            return kind + " on " + topic.name() + "-" + partition + "@" + offset + " (key "
                    + (key == null ? "none" : '"' + key + '"') + ")";
        }
    }

    private final LaharSystem system;
    private final String ns;
    /** The streams-app's JobFlow engine judges only the results that name a flow as their sender: every poison here does. */
    private final String flowSender;

    ChaosPoison(LaharSystem system) {
        this.system = system;
        this.ns = system.namespace;
        this.flowSender = "jobflow:" + ns + "/poison-flow";
    }

    /**
     * @param job  the running job the lifecycle topics' poison is keyed by
     * @param pod  one of its pods
     */
    List<Input> inputs(String job, String pod) {
        Instant now = Instant.now();
        String live = system.key(job);
        String other = ns + "/poison-other";
        List<Input> inputs = new ArrayList<>(List.of(
                new Input(
                        Topics.JOB_COMMANDS,
                        live,
                        JobCommand.newBuilder()
                                .setRequestId("poison-abort")
                                .setSender("chaos-poison")
                                .setNamespace(ns)
                                .setName(job)
                                .setTime(now)
                                .setCommand(new JobActionCommand(JobAction.AbortJob, null, null, "poison"))
                                .build(),
                        other),
                new Input(
                        Topics.POD_EVENTS,
                        live,
                        PodEvent.newBuilder()
                                .setNamespace(ns)
                                .setJob(job)
                                .setPod(pod)
                                .setUid("poison")
                                .setTask("work")
                                .setIndex(0)
                                .setJobVersion(0)
                                .setPhase("Failed")
                                .setNode("poison-node")
                                .setTime(now)
                                .build(),
                        other),
                new Input(
                        Topics.SCHEDULER_DECISIONS,
                        live,
                        SchedulerDecision.newBuilder()
                                .setNamespace(ns)
                                .setJob(job)
                                .setPodGroup(job)
                                .setEpoch(1)
                                .setSession("poison")
                                .setTime(now)
                                .setDecision(Bind.newBuilder()
                                        .setPod(pod)
                                        .setNode("poison-node")
                                        .setAction("allocate")
                                        .setJobVersion(0)
                                        .build())
                                .build(),
                        other),
                new Input(
                        Topics.POD_INTENTS,
                        live,
                        PodIntent.newBuilder()
                                .setNamespace(ns)
                                .setJob(job)
                                .setTime(now)
                                .setIntent(DeletePod.newBuilder()
                                        .setPod(pod)
                                        .setJobVersion(0)
                                        .setReason("poison")
                                        .build())
                                .build(),
                        other),
                new Input(
                        Topics.FLOW_COMMANDS,
                        ns + "/poison-flow",
                        FlowCommand.newBuilder()
                                .setRequestId("poison")
                                .setSender("chaos-poison")
                                .setNamespace(ns)
                                .setName("poison-flow")
                                .setTime(now)
                                .setKind(FlowKind.JobFlow)
                                .setCommand(new SubmitFlowObject("{}"))
                                .build(),
                        other),
                new Input(
                        Topics.CRONJOB_COMMANDS,
                        ns + "/poison-cron",
                        CronJobCommand.newBuilder()
                                .setRequestId("poison")
                                .setSender("chaos-poison")
                                .setNamespace(ns)
                                .setName("poison-cron")
                                .setTime(now)
                                .setCommand(new SubmitCronJob("{}"))
                                .build(),
                        other),
                new Input(
                        Topics.COMMAND_RESULTS,
                        ns + "/poison-job",
                        CommandResult.newBuilder()
                                .setRequestId("poison")
                                .setNamespace(ns)
                                .setName("poison-job")
                                .setKind("SubmitJob")
                                .setAccepted(false)
                                .setSender(flowSender)
                                .setTime(now)
                                .build(),
                        other),
                new Input(
                        Topics.QUEUES,
                        "poison-q",
                        Queue.newBuilder()
                                .setName("poison-q")
                                .setWeight(1)
                                .setState(QueueState.Open)
                                .setTime(now)
                                .build(),
                        "poison-q-other"),
                new Input(
                        Topics.JOB_TEMPLATES,
                        ns + "/poison-template",
                        JobTemplate.newBuilder()
                                .setNamespace(ns)
                                .setName("poison-template")
                                .setUid("poison")
                                .setSpec("{}")
                                .setTime(now)
                                .build(),
                        other),
                new Input(
                        Topics.FLOW_STATUS,
                        ns + "/poison-flow",
                        JobFlowStatusRecord.newBuilder()
                                .setNamespace(ns)
                                .setName("poison-flow")
                                .setUid("poison")
                                .setManifest("{}")
                                .setTime(now)
                                .setStatus(JobFlowStatus.newBuilder()
                                        .setState(new JobFlowState("Running"))
                                        .build())
                                .build(),
                        other),
                new Input(
                        Topics.NODES,
                        "poison-node",
                        Node.newBuilder()
                                .setName("poison-node")
                                .setAllocatable(Map.of("cpu", "64", "memory", "256Gi"))
                                .setCapacity(Map.of("cpu", "64", "memory", "256Gi"))
                                .setLabels(Map.of("lahar.io/pool", system.pool))
                                .setReady(true)
                                .setTime(now)
                                .build(),
                        "poison-node-other"),
                new Input(
                        Topics.POD_GROUPS,
                        ns + "/poison-pg",
                        PodGroup.newBuilder()
                                .setNamespace(ns)
                                .setName("poison-pg")
                                .setJob("poison-pg")
                                .setCreationTimestamp(now)
                                .setSpec(PodGroupSpec.newBuilder()
                                        .setMinMember(1)
                                        .setQueue("default")
                                        .build())
                                .setStatus(PodGroupStatus.newBuilder()
                                        .setPhase("Pending")
                                        .build())
                                .setTime(now)
                                .build(),
                        other),
                new Input(
                        Topics.WORKLOAD_PODS,
                        ns + "/poison-pod",
                        WorkloadPod.newBuilder()
                                .setNamespace(ns)
                                .setName("poison-pod")
                                .setSpec(CreatePod.newBuilder()
                                        .setPod("poison-pod")
                                        .setTask("")
                                        .setIndex(0)
                                        .setJobVersion(0)
                                        .setPodGroup("poison-pg")
                                        .setSchedulerName("volcano")
                                        .setTemplate("{}")
                                        .setRequests(Map.of("cpu", "1"))
                                        .build())
                                .setPhase("Pending")
                                .setTime(now)
                                .build(),
                        other),
                new Input(
                        Topics.PRIORITY_CLASSES,
                        "poison-pc",
                        PriorityClass.newBuilder()
                                .setName("poison-pc")
                                .setValue(1000)
                                .setTime(now)
                                .build(),
                        "poison-pc-other"),
                new Input(
                        Topics.QUEUE_STATUS,
                        "poison-q",
                        QueueStatus.newBuilder()
                                .setName("poison-q")
                                .setState(QueueState.Open)
                                .setTime(now)
                                .build(),
                        "poison-q-other"),
                new Input(
                        Topics.JOB_STATUS,
                        ns + "/poison-job",
                        JobStatusRecord.newBuilder()
                                .setNamespace(ns)
                                .setName("poison-job")
                                .setUid("poison")
                                .setQueue("default")
                                .setManifest("{}")
                                .setTime(now)
                                .setStatus(JobStatus.newBuilder()
                                        .setState(JobState.newBuilder()
                                                .setPhase("Running")
                                                .build())
                                        .setMinAvailable(1)
                                        .build())
                                .build(),
                        other),
                new Input(
                        Topics.CRONJOB_STATUS,
                        ns + "/poison-cron",
                        CronJobStatusRecord.newBuilder()
                                .setNamespace(ns)
                                .setName("poison-cron")
                                .setUid("poison")
                                .setManifest("{}")
                                .setTime(now)
                                .setStatus(CronJobStatus.newBuilder().build())
                                .build(),
                        other)));
        // A tick is keyed by its partition's number: written to partition 0, "3" is not its identity.
        for (Topics.TopicSpec clock : List.of(Topics.CLOCK, Topics.FLOW_CLOCK, Topics.CRON_CLOCK)) {
            inputs.add(new Input(clock, Topics.clockKey(0), new Tick(now), Topics.clockKey(3)));
        }
        return inputs;
    }

    /** Writes every kind of poison on every input; returns what was written, in order. */
    List<Sent> inject(List<Input> inputs) {
        List<Sent> sent = new ArrayList<>();
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(
                Map.of(
                        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        system.infra.bootstrapServers(),
                        ProducerConfig.ACKS_CONFIG,
                        "all"),
                new StringSerializer(),
                new ByteArraySerializer())) {
            for (Input input : inputs) {
                for (Poison kind : kinds(input.topic())) {
                    String key = kind.key(input);
                    // Another topic's record, naming a flow as the results' poison must (a node, except on the nodes'
                    // topic).
                    var otherType = input.topic() == Topics.NODES
                            ? Queue.newBuilder()
                                    .setName(flowSender)
                                    .setTime(Instant.now())
                                    .build()
                            : Node.newBuilder()
                                    .setName(flowSender)
                                    .setTime(Instant.now())
                                    .build();
                    byte[] value = kind.value(input, system.serdes, otherType, flowSender);
                    Integer partition = isClock(input.topic()) ? 0 : null;
                    RecordMetadata written =
                            send(producer, new ProducerRecord<>(input.topic().name(), partition, key, value));
                    sent.add(new Sent(
                            kind,
                            input.topic(),
                            key,
                            value,
                            written.partition(),
                            written.offset(),
                            readers(input.topic(), key),
                            kind.reason(input)));
                }
            }
        }
        return sent;
    }

    /**
     * Every kind the topic can hold as poison: a compacted topic's tombstone deletes its key's object,
     * and the broker itself refuses a record without a key there.
     */
    private static List<Poison> kinds(Topics.TopicSpec topic) {
        return Arrays.stream(Poison.values())
                .filter(p -> !topic.compacted() || p != Poison.TOMBSTONE && p != Poison.NO_KEY)
                .toList();
    }

    /**
     * The services that read the topic and must judge a record of this key: all of its readers, but a
     * bridge bound to one namespace passes over the keyed records of others (the queue status, keyed
     * by cluster-scoped queues).
     */
    private Set<String> readers(Topics.TopicSpec topic, String key) {
        Set<String> readers = new java.util.TreeSet<>();
        READS.forEach((service, topics) -> {
            if (topics.contains(topic)) {
                readers.add(service);
            }
        });
        if (key != null && !key.isEmpty() && !key.startsWith(ns + "/")) {
            readers.remove(BRIDGE);
        }
        return readers;
    }

    private static boolean isClock(Topics.TopicSpec topic) {
        return topic == Topics.CLOCK || topic == Topics.FLOW_CLOCK || topic == Topics.CRON_CLOCK;
    }

    private static RecordMetadata send(KafkaProducer<String, byte[]> producer, ProducerRecord<String, byte[]> record) {
        try {
            return producer.send(record).get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("could not write poison to " + record.topic(), e);
        }
    }
}
