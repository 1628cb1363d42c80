package io.lahar.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.schema.Bind;
import io.lahar.schema.SchedulerDecision;
import io.lahar.schema.TopicBootstrap;
import io.lahar.schema.Topics;
import io.lahar.schema.serde.RegistrySerdes;
import io.lahar.testkit.FreePorts;
import io.lahar.testkit.LaharInfra;
import io.lahar.testkit.ServiceProcess;
import io.lahar.testkit.WithLaharInfra;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;

/**
 * Issue 4 on a real crash: two scheduler-service processes (the packaged Quarkus jar) with one
 * transactional id and leader election; the leader is SIGKILLed while gangs keep arriving, the
 * standby is elected, fences the dead leader's transactional id and finishes the work. Checked on
 * the committed decisions (read_committed): no pod bound twice across the two epochs, no node over
 * its allocatable, gangs bound whole, every gang that fits bound, and nothing of the dead epoch
 * after the successor's first decision for the same job.
 */
@WithLaharInfra
class SchedulerKillIT {

    private static final Duration START = Duration.ofSeconds(90);
    // The broker's group.min.session.timeout.ms is 6 s: the shortest a dead leader can keep the lease.
    private static final String SESSION_TIMEOUT = "6s";
    private static final String TRANSACTION_TIMEOUT = "5s";
    private static final Pattern EPOCH = Pattern.compile("\"epoch\"\\s*:\\s*(\\d+)");
    private static final int NODES = 4; // 4 cpu each: 16 one-cpu pods fit
    private static final int GANGS = 12; // 2 one-cpu pods each: 8 fit, 4 stay pending

    private final String run = UUID.randomUUID().toString().substring(0, 8);
    private final String schedulerName = "kill-" + run;

    private ServiceProcess start(LaharInfra infra, String name) {
        Path jar = Path.of("target/quarkus-app/quarkus-run.jar").toAbsolutePath();
        Map<String, String> props = new LinkedHashMap<>();
        props.put("kafka.bootstrap.servers", infra.bootstrapServers());
        props.put("lahar.schema-registry.url", infra.registryUrl());
        props.put("lahar.scheduler.transactional-id", "kill-" + run);
        props.put("lahar.scheduler.group-id", "kill-" + run);
        props.put("lahar.scheduler.scheduler-names", schedulerName);
        props.put("lahar.scheduler.node-selector", "lahar.io/run:" + run);
        props.put("lahar.scheduler.period", "200ms");
        props.put("lahar.scheduler.leader-election", "true");
        props.put("lahar.scheduler.leader-session-timeout", SESSION_TIMEOUT);
        props.put("lahar.scheduler.transaction-timeout", TRANSACTION_TIMEOUT);
        return ServiceProcess.start(
                name,
                jar,
                FreePorts.next(),
                props,
                Path.of("target/kill-it").toAbsolutePath().resolve(run));
    }

    /** The epoch the service reports in its health data, once it is the active writer. */
    private static long epoch(ServiceProcess service) {
        String body = service.get("/q/health/ready");
        assertThat(body).as("%s is ready", service.name()).isNotNull();
        Matcher m = EPOCH.matcher(body);
        assertThat(m.find()).as("epoch in %s", body).isTrue();
        return Long.parseLong(m.group(1));
    }

    @Test
    void theStandbyTakesOverFromAKilledLeaderAndNoPodIsBoundTwiceNorANodeOvercommitted(LaharInfra infra)
            throws InterruptedException {
        TopicBootstrap.ensureTopics(infra.bootstrapServers());
        try (Wire wire = new Wire(infra.bootstrapServers(), infra.registryUrl());
                ServiceProcess first = start(infra, "scheduler-a")) {
            first.awaitReady(START); // alone in the election group: it leads
            long firstEpoch = epoch(first);
            try (ServiceProcess second = start(infra, "scheduler-b")) {
                Cluster c = new Cluster(wire, run, schedulerName);
                c.nodesAndQueue(NODES, "4");
                for (int i = 0; i < 3; i++) c.gang(i, 2, "1", i);
                wire.decisions(
                        d -> c.mine(d) && d.getEpoch() == firstEpoch,
                        found -> Cluster.boundByJob(found).size() == 3,
                        Duration.ofSeconds(60));
                second.awaitLive(START);
                assertThat(second.get("/q/health/ready"))
                        .as("the standby does not lead")
                        .isNull();

                // Steady load: gangs keep arriving and the leader dies among them, in or between
                // sessions; a transaction it has open then is aborted by the successor's fencing.
                CountDownLatch twoMore = new CountDownLatch(2);
                Thread feeder = Thread.ofPlatform().name("kill-it-feeder").start(() -> {
                    for (int i = 3; i < GANGS; i++) {
                        c.gang(i, 2, "1", i);
                        twoMore.countDown();
                    }
                });
                assertThat(twoMore.await(30, TimeUnit.SECONDS)).isTrue();
                long killed = System.nanoTime();
                first.kill();
                assertThat(feeder.join(Duration.ofSeconds(30)))
                        .as("all gangs sent")
                        .isTrue();

                second.awaitReady(START);
                long takeover = Duration.ofNanos(System.nanoTime() - killed).toMillis();
                long secondEpoch = epoch(second);
                assertThat(secondEpoch).isGreaterThan(firstEpoch);
                System.out.printf(
                        "SchedulerKillIT: takeover %d ms after SIGKILL (epoch %d -> %d)%n",
                        takeover, firstEpoch, secondEpoch);

                Set<String> jobs = IntStream.range(0, GANGS).mapToObj(c::job).collect(Collectors.toSet());
                // Another scheduler-service on the shared broker may write statuses about these pod
                // groups (it sees them, not their pods, which are not its own): count only ours.
                List<SchedulerDecision> mine = wire.decisions(
                        c::mine,
                        found -> Cluster.lastStatus(found).keySet().containsAll(jobs)
                                && Cluster.binds(found).size() >= 2 * 2 * NODES,
                        Duration.ofSeconds(60));
                assertThat(mine)
                        .filteredOn(d -> d.getDecision() instanceof Bind)
                        .extracting(SchedulerDecision::getEpoch)
                        .as("only the two instances bind these pods")
                        .containsOnly(firstEpoch, secondEpoch);
                List<SchedulerDecision> ds = mine.stream()
                        .filter(d -> d.getEpoch() == firstEpoch || d.getEpoch() == secondEpoch)
                        .toList();

                List<Bind> binds = Cluster.binds(ds);
                int committedByDead = Cluster.binds(ds.stream()
                                .filter(d -> d.getEpoch() == firstEpoch)
                                .toList())
                        .size();
                System.out.printf(
                        "SchedulerKillIT: pods bound by the killed leader %d (+%d in its aborted "
                                + "transaction), by its successor %d%n",
                        committedByDead,
                        uncommittedBinds(infra, c, firstEpoch) - committedByDead,
                        Cluster.binds(ds.stream()
                                        .filter(d -> d.getEpoch() == secondEpoch)
                                        .toList())
                                .size());
                assertThat(binds)
                        .extracting(Bind::getPod)
                        .as("no pod bound twice")
                        .doesNotHaveDuplicates();
                Map<String, Long> perNode =
                        binds.stream().collect(Collectors.groupingBy(Bind::getNode, Collectors.counting()));
                assertThat(perNode)
                        .as("1-cpu pods per 4-cpu node")
                        .allSatisfy((node, n) -> assertThat(n).isLessThanOrEqualTo(4));
                assertThat(binds).as("every gang that fits is bound").hasSize(2 * 2 * NODES);
                assertThat(Cluster.boundByJob(ds))
                        .as("gangs bound whole")
                        .hasSize(2 * NODES)
                        .allSatisfy((job, pods) -> assertThat(pods).hasSize(2));
                assertThat(ds).as("the successor decided").anyMatch(d -> d.getEpoch() == secondEpoch);
                assertThat(afterTakeover(ds, firstEpoch, secondEpoch))
                        .as("decisions of the dead epoch after the takeover")
                        .isEmpty();
            }
        }
    }

    /**
     * The binds of {@code epoch} in the log as it is, aborted transactions included
     * (read_uncommitted): more than the committed ones when the kill caught a transaction open.
     */
    private static int uncommittedBinds(LaharInfra infra, Cluster c, long epoch) {
        Map<String, Object> config = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                infra.bootstrapServers(),
                ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                "read_uncommitted");
        String topic = Topics.SCHEDULER_DECISIONS.name();
        int binds = 0;
        try (KafkaConsumer<String, SchedulerDecision> consumer = new KafkaConsumer<>(
                config,
                new StringDeserializer(),
                new RegistrySerdes(infra.registryUrl())
                        .value(SchedulerDecision.class)
                        .deserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(p -> new TopicPartition(topic, p.partition()))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (partitions.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
                assertThat(System.nanoTime()).as("read %s to its end", topic).isLessThan(deadline);
                for (ConsumerRecord<String, SchedulerDecision> r : consumer.poll(Duration.ofMillis(200))) {
                    SchedulerDecision d = r.value();
                    if (d != null && c.mine(d) && d.getEpoch() == epoch && d.getDecision() instanceof Bind) binds++;
                }
            }
        }
        return binds;
    }

    /**
     * The dead epoch's decisions that follow, in the log of their job (one key, one partition, so
     * the read order is the log order), a decision of the successor: a zombie's write that got
     * past the fence.
     */
    private static List<SchedulerDecision> afterTakeover(List<SchedulerDecision> ds, long dead, long successor) {
        Map<String, Boolean> taken = new HashMap<>();
        List<SchedulerDecision> late = new ArrayList<>();
        for (SchedulerDecision d : ds) {
            if (d.getEpoch() == successor) taken.put(d.getJob(), true);
            else if (d.getEpoch() == dead && taken.getOrDefault(d.getJob(), false)) late.add(d);
        }
        return late;
    }
}
