package io.lahar.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lahar.cli.ReplayCommand;
import io.lahar.cli.replay.InputLog;
import io.lahar.schema.Bind;
import io.lahar.schema.DeadLetter;
import io.lahar.schema.JobTransition;
import io.lahar.schema.KafkaSettings;
import io.lahar.schema.PodEvent;
import io.lahar.schema.SchedulerDecision;
import io.lahar.schema.Topics;
import io.lahar.schema.serde.RegistrySerdes;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;

/**
 * Issue 33, point 7: chaos under a stream of jobs, on a broker, registry and services of the test's
 * own. While small jobs keep arriving: poison of every kind on every topic a service reads; SIGKILL
 * of the streams-app; the registry stopped, and the scheduler SIGKILLed and started again while it
 * is away; SIGKILL of the k8s-bridge, then of the kube-emulator; the broker stopped and started
 * again. Each service comes back as bin/start's supervisor brings it back. Afterwards every job is
 * in a final phase, its transitions on {@code lahar.job-transitions} equal {@code lahar replay} of
 * its inputs record for record (nothing lost, nothing duplicated), no pod was bound twice, every
 * poison record is on {@code lahar.dead-letters} from each service that reads it, with its reason,
 * and nothing else is (no valid record was taken for poison during the outages).
 */
class ChaosIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(240);
    private static final Duration STEP = Duration.ofSeconds(2);
    private static final int MAX_JOBS = 60;
    private static final Duration REGISTRY_OUTAGE = Duration.ofSeconds(10);
    private static final Set<String> FINAL = Set.of("Completed", "Failed", "Aborted", "Terminated");

    @Test
    void underAStreamOfJobsEveryFaultAndEveryPoisonLeavesNothingLostNothingDuplicated() throws Exception {
        long began = System.nanoTime();
        Map<String, Double> timeline = new LinkedHashMap<>();
        Path dir = Path.of(System.getProperty("lahar.system-tests.dir", "target/system-tests"))
                .toAbsolutePath()
                .resolve("chaos-" + UUID.randomUUID().toString().substring(0, 6));
        try (ChaosInfra infra = ChaosInfra.start(dir.resolve("infra"));
                LaharSystem system = LaharSystem.startDedicated(infra.infra());
                Jobs jobs = new Jobs(system)) {
            timeline.put("system up", seconds(began));
            String canary = system.submit(system.simJob("chaos-canary", 2, "20s"));
            jobs.add(canary);
            jobs.start();
            system.records.skipUndecodable();
            ChaosPoison poison = new ChaosPoison(system);
            List<ChaosPoison.Sent> sent = poison.inject(poison.inputs(canary, canary + "-work-0"));
            timeline.put(sent.size() + " poison records written", seconds(began));
            // Reached Running, whatever it is now: on a busy machine writing the poison can outlast the
            // canary's 20 s, and a canary already Completed has run all the same.
            await().atMost(TIMEOUT)
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> system.records.transitions(system.key(canary)).stream()
                            .anyMatch(t -> t.getTo().toString().equals("Running")));
            timeline.put("first job running", seconds(began));

            system.killAndRestartStreamsApp();
            timeline.put("streams-app killed and back", seconds(began));

            infra.stopRegistry();
            var scheduler = system.killAndStartScheduler();
            LaharSystem.sleep(REGISTRY_OUTAGE.toMillis()); // the outage's length, not a wait for a condition
            infra.startRegistry();
            scheduler.awaitReady(LaharSystem.READY_TIMEOUT);
            timeline.put(
                    "registry away " + REGISTRY_OUTAGE.toSeconds() + " s, scheduler killed meanwhile, both back",
                    seconds(began));

            system.killAndRestartBridge();
            timeline.put("k8s-bridge killed and back", seconds(began));
            system.killAndRestartEmulator();
            timeline.put("kube-emulator killed and back", seconds(began));

            jobs.stop();
            infra.restartBroker();
            timeline.put("broker restarted", seconds(began));

            awaitFinal(system, jobs.names());
            timeline.put("all " + jobs.names().size() + " jobs final", seconds(began));

            assertEveryJobCompleted(system, jobs.names());
            assertLiveEqualsReplay(system, jobs.names());
            timeline.put("replays compared", seconds(began));
            assertNoPodBoundTwice(system, sent);
            assertEveryPoisonDeadLettered(system, sent);
            timeline.put("decisions and dead letters checked", seconds(began));
        } finally {
            System.out.println("ChaosIT: "
                    + timeline.entrySet().stream()
                            .map(e -> String.format("%.0f s %s", e.getValue(), e.getKey()))
                            .collect(Collectors.joining("; ")));
        }
    }

    /** Every job's latest status is a final phase. */
    private static void awaitFinal(LaharSystem system, List<String> jobs) {
        try {
            await().atMost(TIMEOUT)
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> jobs.stream().allMatch(j -> FINAL.contains(system.records.phase(system.key(j)))));
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            Map<String, String> stuck = new TreeMap<>();
            jobs.stream()
                    .filter(j -> !FINAL.contains(system.records.phase(system.key(j))))
                    .forEach(j -> stuck.put(
                            j,
                            system.records.phase(system.key(j)) + " after " + phases(system, j)
                                    + "; its pods in the cluster: " + podsInCluster(system, j)));
            throw new AssertionError("jobs not in a final phase after " + TIMEOUT + ": " + stuck + system.logs(), e);
        }
    }

    /** What the cluster says of a job's pods (name, phase, node): whether a stuck job's pods ran and ended. */
    private static String podsInCluster(LaharSystem system, String job) {
        try {
            return system.kube().pods().inNamespace(system.namespace).list().getItems().stream()
                    .filter(p -> p.getMetadata().getName().startsWith(job + "-"))
                    .map(p -> p.getMetadata().getName() + " " + p.getStatus().getPhase() + " on "
                            + p.getSpec().getNodeName())
                    .toList()
                    .toString();
        } catch (RuntimeException e) {
            return "(cannot list: " + e + ")";
        }
    }

    /** None of them may fail: a job that did was hurt by a fault or a poison record. */
    private static void assertEveryJobCompleted(LaharSystem system, List<String> jobs) {
        Map<String, String> others = new TreeMap<>();
        jobs.stream()
                .filter(j -> !system.records.phase(system.key(j)).equals("Completed"))
                .forEach(j -> others.put(j, phases(system, j)));
        assertThat(others)
                .as("jobs that did not complete, with their transitions")
                .isEmpty();
    }

    private static void assertLiveEqualsReplay(LaharSystem system, List<String> jobs) throws Exception {
        RegistrySerdes serdes = new RegistrySerdes(system.infra.registryUrl());
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            Map<String, Future<List<JobTransition>>> replays = new LinkedHashMap<>();
            for (String job : jobs) {
                replays.put(job, pool.submit(() -> {
                    InputLog.Log log = InputLog.read(
                            KafkaSettings.plaintext(system.infra.bootstrapServers()),
                            serdes,
                            system.key(job),
                            Duration.ofSeconds(60));
                    return ReplayCommand.transitions(ReplayCommand.replay(
                            system.namespace, job, KillRestartIT.MAX_CLOCK_STEP, log.queues(), log.inputs()));
                }));
            }
            for (var replay : replays.entrySet()) {
                String key = system.key(replay.getKey());
                assertThat(system.records.transitions(key))
                        .as(key + ": lahar.job-transitions equals lahar replay")
                        .containsExactlyElementsOf(replay.getValue().get());
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * One committed bind per pod and job version (a pod of a new version is a new pod of the same
     * name), and each pod seen by the cluster on one node only.
     */
    private static void assertNoPodBoundTwice(LaharSystem system, List<ChaosPoison.Sent> poison) {
        Set<String> poisonAt = poison.stream()
                .map(p -> where(p.topic().name(), p.partition(), p.offset()))
                .collect(Collectors.toSet());
        Deserializer<SchedulerDecision> decisions =
                system.serdes.value(SchedulerDecision.class).deserializer();
        Map<String, List<String>> binds = new TreeMap<>();
        for (ConsumerRecord<String, byte[]> r : readAll(system, Topics.SCHEDULER_DECISIONS)) {
            if (poisonAt.contains(where(r.topic(), r.partition(), r.offset()))) {
                continue;
            }
            SchedulerDecision d = decisions.deserialize(r.topic(), r.value());
            if (d.getDecision() instanceof Bind b) {
                binds.computeIfAbsent(
                                r.key() + " pod " + b.getPod() + " version " + b.getJobVersion(),
                                k -> new ArrayList<>())
                        .add(b.getNode() + " (epoch " + d.getEpoch() + ", offset " + r.partition() + "@" + r.offset()
                                + ")");
            }
        }
        assertThat(binds).as("bind decisions").isNotEmpty();
        assertThat(binds.entrySet().stream()
                        .filter(e -> e.getValue().size() > 1)
                        .toList())
                .as("pods bound more than once (pod: its binds)")
                .isEmpty();

        Deserializer<PodEvent> events = system.serdes.value(PodEvent.class).deserializer();
        Map<String, Set<String>> nodes = new TreeMap<>();
        for (ConsumerRecord<String, byte[]> r : readAll(system, Topics.POD_EVENTS)) {
            if (poisonAt.contains(where(r.topic(), r.partition(), r.offset()))) {
                continue;
            }
            PodEvent e = events.deserialize(r.topic(), r.value());
            if (e.getNode() != null && !e.getNode().isEmpty()) {
                nodes.computeIfAbsent(r.key() + " pod " + e.getPod() + " uid " + e.getUid(), k -> new TreeSet<>())
                        .add(e.getNode());
            }
        }
        assertThat(nodes.entrySet().stream()
                        .filter(e -> e.getValue().size() > 1)
                        .toList())
                .as("pods the cluster reported on more than one node")
                .isEmpty();
    }

    /**
     * Each poison record has a letter from every service that reads it, keeping its bytes and naming
     * the cause; and no letter is of a record that was not poison.
     */
    private static void assertEveryPoisonDeadLettered(LaharSystem system, List<ChaosPoison.Sent> poison) {
        Deserializer<DeadLetter> deserializer =
                system.serdes.value(DeadLetter.class).deserializer();
        Map<String, List<DeadLetter>> letters = new TreeMap<>();
        List<String> missing = new ArrayList<>();
        // The letters are written as each service reads the poison; a service started again re-reads.
        try {
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofSeconds(1))
                    .until(() -> {
                        letters.clear();
                        letters.putAll(lettersBySource(system, deserializer));
                        missing.clear();
                        missing.addAll(missing(poison, letters));
                        return missing.isEmpty();
                    });
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            throw new AssertionError(missing.size() + " dead letters missing:\n" + String.join("\n", missing), e);
        }
        for (ChaosPoison.Sent p : poison) {
            for (DeadLetter letter : letters.get(where(p.topic().name(), p.partition(), p.offset()))) {
                assertThat(letter.getError())
                        .as(p + ": the reason of " + letter.getProcessor())
                        .contains(p.reason());
                assertThat(
                                letter.getKey() == null
                                        ? null
                                        : new String(bytes(letter.getKey()), java.nio.charset.StandardCharsets.UTF_8))
                        .as(p + ": the key kept by " + letter.getProcessor())
                        .isEqualTo(p.key());
                assertThat(letter.getValue() == null ? null : bytes(letter.getValue()))
                        .as(p + ": the bytes kept by " + letter.getProcessor())
                        .isEqualTo(p.value());
            }
        }
        Set<String> poisonAt = poison.stream()
                .map(p -> where(p.topic().name(), p.partition(), p.offset()))
                .collect(Collectors.toSet());
        assertThat(letters.entrySet().stream()
                        .filter(e -> !poisonAt.contains(e.getKey()))
                        .toList())
                .as("dead letters of records that were not poison (a valid record dead-lettered)")
                .isEmpty();
    }

    /** The dead letters so far, by where their record was ({@link #where}). */
    private static Map<String, List<DeadLetter>> lettersBySource(
            LaharSystem system, Deserializer<DeadLetter> deserializer) {
        Map<String, List<DeadLetter>> letters = new TreeMap<>();
        for (ConsumerRecord<String, byte[]> r : readAll(system, Topics.DEAD_LETTERS)) {
            DeadLetter letter = deserializer.deserialize(r.topic(), r.value());
            letters.computeIfAbsent(
                            where(letter.getTopic(), letter.getPartition(), letter.getOffset()), k -> new ArrayList<>())
                    .add(letter);
        }
        return letters;
    }

    /** Each poison record and reader without a letter from that reader. */
    private static List<String> missing(List<ChaosPoison.Sent> poison, Map<String, List<DeadLetter>> letters) {
        List<String> missing = new ArrayList<>();
        for (ChaosPoison.Sent p : poison) {
            List<DeadLetter> mine = letters.getOrDefault(where(p.topic().name(), p.partition(), p.offset()), List.of());
            for (String reader : p.readers()) {
                if (mine.stream().noneMatch(l -> l.getProcessor().equals(reader))) {
                    missing.add(p + ": no letter from " + reader + "; letters of it: " + describe(mine));
                }
            }
        }
        return missing;
    }

    private static String describe(List<DeadLetter> letters) {
        return letters.isEmpty()
                ? "none"
                : letters.stream()
                        .map(l -> l.getProcessor() + ": " + l.getError())
                        .collect(Collectors.joining(" | "));
    }

    /** Every committed record of the topic, from its beginning to its end now. */
    static List<ConsumerRecord<String, byte[]>> readAll(LaharSystem system, Topics.TopicSpec topic) {
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        system.infra.bootstrapServers(),
                        ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                        "read_committed",
                        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                        false),
                new StringDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = java.util.stream.IntStream.range(0, topic.partitions())
                    .mapToObj(p -> new TopicPartition(topic.name(), p))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            List<ConsumerRecord<String, byte[]>> all = new ArrayList<>();
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (partitions.stream().anyMatch(tp -> consumer.position(tp) < ends.get(tp))) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("could not read " + topic.name() + " to its end " + ends);
                }
                consumer.poll(Duration.ofMillis(200)).forEach(all::add);
            }
            return all;
        }
    }

    private static String phases(LaharSystem system, String job) {
        return system.records.transitions(system.key(job)).stream()
                .map(t -> t.getFrom() + "->" + t.getTo() + " (" + t.getEvent() + ")")
                .toList()
                .toString();
    }

    private static String where(String topic, int partition, long offset) {
        return topic + "-" + partition + "@" + offset;
    }

    private static byte[] bytes(ByteBuffer buffer) {
        byte[] out = new byte[buffer.remaining()];
        buffer.duplicate().get(out);
        return out;
    }

    private static double seconds(long from) {
        return (System.nanoTime() - from) / 1e9;
    }

    /** The stream of small jobs: one every {@link #STEP} on a thread of its own, until stopped. */
    private static final class Jobs implements AutoCloseable {
        private final LaharSystem system;
        private final List<String> names = new CopyOnWriteArrayList<>();
        private final Thread thread;
        private volatile boolean running = true;
        private volatile RuntimeException failure;

        Jobs(LaharSystem system) {
            this.system = system;
            this.thread = new Thread(this::run, "chaos-jobs");
            this.thread.setDaemon(true);
        }

        void add(String job) {
            names.add(job);
        }

        void start() {
            thread.start();
        }

        private void run() {
            try {
                for (int i = 0; running && i < MAX_JOBS; i++) {
                    // One or two pods of two seconds each: many small gangs through every fault.
                    names.add(system.submit(system.simJob(String.format("chaos-%03d", i), 1 + i % 2, "2s")));
                    Thread.sleep(STEP.toMillis());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
                failure = e;
            }
        }

        long completed() {
            return names.stream()
                    .filter(j -> system.records.phase(system.key(j)).equals("Completed"))
                    .count();
        }

        /** Stops submitting; returns once the last submission is written. */
        void stop() throws InterruptedException {
            running = false;
            thread.join(Duration.ofSeconds(150).toMillis());
            if (failure != null) {
                throw new AssertionError("submitting the jobs failed", failure);
            }
        }

        List<String> names() {
            return List.copyOf(names);
        }

        @Override
        public void close() throws InterruptedException {
            running = false;
            thread.interrupt();
            thread.join(10_000);
        }
    }
}
