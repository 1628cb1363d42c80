package io.lahar.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lahar.core.scheduling.framework.SchedulerConf;
import io.lahar.scheduler.loop.LoopSettings;
import io.lahar.scheduler.loop.LoopState;
import io.lahar.scheduler.loop.SchedulerMetrics;
import io.lahar.scheduler.loop.SchedulingLoop;
import io.lahar.schema.Bind;
import io.lahar.schema.SchedulerDecision;
import io.lahar.schema.TopicBootstrap;
import io.lahar.testkit.LaharInfra;
import io.lahar.testkit.WithLaharInfra;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Two scheduling loops with one transactional id in one JVM: the second fences the first, which
 * stops; the committed decisions never bind a pod twice nor put a node over its allocatable.
 */
@WithLaharInfra
class SchedulerTakeoverIT {

    private final String run = UUID.randomUUID().toString().substring(0, 8);
    // Its own scheduler name: the scheduler-service of another test in this JVM leaves these pods alone.
    private final String schedulerName = "takeover-" + run;

    private SchedulingLoop loop(LaharInfra infra) {
        LoopSettings settings = new LoopSettings(
                infra.bootstrapServers(),
                infra.registryUrl(),
                "takeover-" + run,
                "takeover-" + run,
                Duration.ofMillis(200),
                SchedulerConf.defaults(),
                1000,
                Set.of(schedulerName),
                Duration.ofSeconds(30));
        return new SchedulingLoop(settings, new SchedulerMetrics(new SimpleMeterRegistry()), Clock.systemUTC());
    }

    @Test
    void aSecondInstanceFencesTheFirstAndNoPodIsBoundTwiceNorANodeOvercommitted(LaharInfra infra) throws Exception {
        TopicBootstrap.ensureTopics(infra.bootstrapServers());
        SchedulingLoop first = loop(infra);
        SchedulingLoop second = loop(infra);
        Thread a = Thread.ofPlatform().name("scheduler-a").start(first);
        Thread b = null;
        try (Wire wire = new Wire(infra.bootstrapServers(), infra.registryUrl())) {
            Cluster c = new Cluster(wire, run, schedulerName);
            c.nodesAndQueue(2, "4"); // 8 cpu
            for (int i = 0; i < 3; i++) c.gang(i, 2, "1", i); // 6 cpu, bound by the first instance
            wire.decisions(
                    d -> c.mine(d) && d.getEpoch() == first.epoch(),
                    found -> Cluster.boundByJob(found).size() == 3,
                    Duration.ofSeconds(60));
            assertThat(first.state()).isEqualTo(LoopState.ACTIVE);

            b = Thread.ofPlatform().name("scheduler-b").start(second);
            await().atMost(Duration.ofSeconds(60)).until(() -> second.state() == LoopState.ACTIVE);
            for (int i = 3; i < 6; i++) c.gang(i, 2, "1", i); // 6 cpu more, room for one gang
            await().atMost(Duration.ofSeconds(30)).until(() -> first.state() == LoopState.FENCED);

            Set<String> jobs = Set.of(c.job(0), c.job(1), c.job(2), c.job(3), c.job(4), c.job(5));
            // Another scheduler-service of this test JVM may write statuses about these pod groups
            // (it sees them before their pods, which are not its own): count only these two instances.
            List<SchedulerDecision> ds = wire.decisions(
                    d -> c.mine(d) && (d.getEpoch() == first.epoch() || d.getEpoch() == second.epoch()),
                    found -> Cluster.lastStatus(found).keySet().containsAll(jobs)
                            && Cluster.binds(found).size() >= 8,
                    Duration.ofSeconds(60));

            List<Bind> binds = Cluster.binds(ds);
            assertThat(binds).extracting(Bind::getPod).doesNotHaveDuplicates();
            Map<String, Long> perNode =
                    binds.stream().collect(Collectors.groupingBy(Bind::getNode, Collectors.counting()));
            assertThat(perNode)
                    .as("1-cpu pods per 4-cpu node")
                    .allSatisfy((node, n) -> assertThat(n).isLessThanOrEqualTo(4));
            assertThat(binds).hasSize(8);
            assertThat(Cluster.boundByJob(ds).values())
                    .as("gangs bound whole")
                    .allSatisfy(p -> assertThat(p).hasSize(2));

            Map<Long, Long> byEpoch = new HashMap<>();
            ds.forEach(d -> byEpoch.merge(d.getEpoch(), 1L, Long::sum));
            assertThat(second.epoch()).isGreaterThan(first.epoch());
            assertThat(byEpoch.keySet()).containsExactlyInAnyOrder(first.epoch(), second.epoch());
        } finally {
            first.stop();
            second.stop();
            a.join(Duration.ofSeconds(20));
            if (b != null) b.join(Duration.ofSeconds(20));
        }
        assertThat(second.state()).isEqualTo(LoopState.STOPPED);
    }
}
