package io.lahar.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lahar.scheduler.loop.LeaderElection;
import io.lahar.schema.KafkaClients;
import io.lahar.schema.TopicBootstrap;
import io.lahar.testkit.LaharInfra;
import io.lahar.testkit.WithLaharInfra;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** One leader among scheduler instances; a standby does not take leadership, it inherits it. */
@WithLaharInfra
class LeaderElectionIT {

    private final String group = "election-" + UUID.randomUUID().toString().substring(0, 8);

    private record Member(LeaderElection election, Thread thread, AtomicInteger elected, AtomicInteger deposed) {
        void leave() throws InterruptedException {
            election.stop();
            thread.join(Duration.ofSeconds(20));
        }
    }

    private Member join(LaharInfra infra, String name) {
        AtomicInteger elected = new AtomicInteger();
        AtomicInteger deposed = new AtomicInteger();
        LeaderElection e = new LeaderElection(
                LeaderElection.through(KafkaClients.plaintext(infra.bootstrapServers())),
                group,
                Optional.empty(),
                Duration.ofSeconds(6),
                elected::incrementAndGet,
                deposed::incrementAndGet);
        return new Member(e, Thread.ofPlatform().name(name).start(e), elected, deposed);
    }

    @Test
    void theStandbyTakesOverWhenTheLeaderLeaves(LaharInfra infra) throws Exception {
        TopicBootstrap.ensureTopics(infra.bootstrapServers());
        Member a = join(infra, "member-a");
        await().atMost(Duration.ofSeconds(30)).until(() -> a.election().isLeader());
        Member b = join(infra, "member-b");
        try {
            // b joins (a rebalance happens), yet a keeps the leadership: the assignment is sticky.
            await().pollDelay(Duration.ofSeconds(3))
                    .atMost(Duration.ofSeconds(10))
                    .until(() -> true);
            assertThat(a.election().isLeader()).isTrue();
            assertThat(b.election().isLeader()).isFalse();
            assertThat(a.elected()).hasValue(1);
            assertThat(a.deposed()).hasValue(0);

            a.leave();
            assertThat(a.deposed())
                    .as("the leader stops its loop before it leaves")
                    .hasValue(1);
            // isLeader() turns true just before the election thread runs onElected: wait for both.
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                assertThat(b.election().isLeader()).isTrue();
                assertThat(b.elected()).hasValue(1);
            });
        } finally {
            b.leave();
        }
        assertThat(b.deposed()).hasValue(1);
    }
}
