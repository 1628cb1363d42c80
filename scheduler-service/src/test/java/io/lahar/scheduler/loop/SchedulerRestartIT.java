package io.lahar.scheduler.loop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lahar.core.scheduling.framework.SchedulerConf;
import io.lahar.scheduler.Cluster;
import io.lahar.scheduler.Wire;
import io.lahar.schema.PollWatch;
import io.lahar.schema.SchedulerDecision;
import io.lahar.schema.TopicBootstrap;
import io.lahar.testkit.KafkaBroker;
import io.lahar.testkit.LaharInfra;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A broker outage longer than the loop's clients' timeouts fails the loop (its transaction, then
 * the abort, time out); the supervisor starts new loops until the broker is back, and the new one
 * fences the old producer, rebuilds its cache and decides on, with a higher epoch. A broker of the
 * test's own, stopped and started again on the same data and port.
 */
class SchedulerRestartIT {

    /** Long enough that the offsets of the decisions read back are committed while the broker is away. */
    private static final Duration PERIOD = Duration.ofSeconds(8);

    /** The broker timeouts, short so that the outage outlasts them within the test. */
    private static final Map<String, Object> TUNING = Map.of(
            ProducerConfig.MAX_BLOCK_MS_CONFIG, 2_000,
            ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 1_500,
            ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 3_000,
            ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 2_000);

    private final String run = UUID.randomUUID().toString().substring(0, 8);
    private final String schedulerName = "restart-" + run;

    @TempDir
    Path dir;

    @Test
    void aLoopFailedByABrokerOutageIsReplacedAndDecidesOnOnceTheBrokerIsBack() throws Exception {
        String registry = LaharInfra.shared().registryUrl();
        KafkaBroker broker = KafkaBroker.start(dir);
        int port = broker.port();
        TopicBootstrap.ensureTopics(broker.bootstrapServers());
        LoopSettings settings = new LoopSettings(
                broker.bootstrapServers(),
                registry,
                "restart-" + run,
                "restart-" + run,
                PERIOD,
                SchedulerConf.defaults(),
                1000,
                Set.of(schedulerName),
                Duration.ofSeconds(30));
        SchedulerMetrics metrics = new SchedulerMetrics(new SimpleMeterRegistry());
        LoopSupervisor<SchedulingLoop> supervisor = new LoopSupervisor<>(
                () -> new SchedulingLoop(settings, metrics, Clock.systemUTC(), TUNING), metrics::restarted);
        Thread thread = Thread.ofPlatform().name("scheduler").start(supervisor);
        try {
            await().atMost(Duration.ofSeconds(30)).until(() -> supervisor.state() == LoopState.ACTIVE);
            SchedulingLoop first = supervisor.current().orElseThrow();
            // The service's liveness: the loop's consumer has polled within a period (a session's wait).
            PollWatch polls = SchedulingLoop.pollWatch(supervisor::current, "scheduler");
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> !polls.sincePoll().isEmpty());
            assertThat(polls.sincePoll()).containsOnlyKeys("scheduler");
            assertThat(polls.sincePoll().get("scheduler")).isLessThanOrEqualTo(PERIOD.toSeconds());
            assertThat(polls.live()).isTrue();
            try (Wire wire = new Wire(broker.bootstrapServers(), registry)) {
                Cluster c = new Cluster(wire, run, schedulerName);
                c.nodesAndQueue(1, "4");
                c.gang(0, 2, "1", 0);
                wire.decisions(
                        d -> c.mine(d) && d.getEpoch() == first.epoch(),
                        found -> Cluster.boundByJob(found).containsKey(c.job(0)),
                        Duration.ofSeconds(20));
            }

            // The loop read its decisions back; their offsets are committed, within a period, into a broker that is
            // gone.
            broker.close();
            AtomicBoolean everFailed = new AtomicBoolean();
            await().atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(50))
                    .until(() -> {
                        everFailed.compareAndSet(false, supervisor.state() == LoopState.FAILED);
                        return first.state() == LoopState.FAILED && supervisor.restarts() >= 1;
                    });
            assertThat(thread.isAlive()).isTrue();

            broker = KafkaBroker.start(dir, port);
            await().atMost(Duration.ofSeconds(40))
                    .pollInterval(Duration.ofMillis(50))
                    .until(() -> {
                        everFailed.compareAndSet(false, supervisor.state() == LoopState.FAILED);
                        return supervisor.state() == LoopState.ACTIVE;
                    });
            assertThat(everFailed)
                    .as("the service never reported a failure for good")
                    .isFalse();
            SchedulingLoop second = supervisor.current().orElseThrow();
            assertThat(second).isNotSameAs(first);
            assertThat(second.epoch()).isGreaterThan(first.epoch());
            assertThat(metrics.restarts()).isEqualTo(supervisor.restarts());

            try (Wire wire = new Wire(broker.bootstrapServers(), registry)) {
                Cluster c = new Cluster(wire, run, schedulerName);
                c.gang(1, 2, "1", 1);
                List<SchedulerDecision> ds = wire.decisions(
                        d -> c.mine(d) && d.getEpoch() == second.epoch(),
                        found -> Cluster.boundByJob(found).containsKey(c.job(1)),
                        Duration.ofSeconds(20));
                assertThat(Cluster.boundByJob(ds))
                        .as("the rebuilt cache knows the first gang's pods: not bound again")
                        .doesNotContainKey(c.job(0));
            }
        } finally {
            long stopping = System.nanoTime();
            supervisor.stop();
            thread.join(Duration.ofSeconds(20));
            assertThat(thread.isAlive()).as("stop returns").isFalse();
            assertThat(Duration.ofNanos(System.nanoTime() - stopping)).isLessThan(Duration.ofSeconds(15));
            broker.close();
        }
        assertThat(supervisor.state()).isEqualTo(LoopState.STOPPED);
        assertThat(SchedulingLoop.pollWatch(supervisor::current, "scheduler").sincePoll())
                .as("a stopped loop's closed consumer is not watched")
                .isEmpty();
    }
}
