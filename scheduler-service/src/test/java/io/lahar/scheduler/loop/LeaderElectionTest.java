package io.lahar.scheduler.loop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.KafkaException;
import org.junit.jupiter.api.Test;

/** A failed poll ends one membership, not the election: deposed, closed, and a new consumer joins. */
class LeaderElectionTest {

    /** Polls as a real consumer would, without spinning: each poll waits a little. */
    static final class Member extends MockConsumer<byte[], byte[]> {
        Member() {
            super("latest");
            updateBeginningOffsets(Map.of(LeaderElection.LEASE, 0L));
            updateEndOffsets(Map.of(LeaderElection.LEASE, 0L));
            // Elected on the first poll, as the group's only member.
            schedulePollTask(() -> rebalance(List.of(LeaderElection.LEASE)));
        }

        @Override
        public ConsumerRecords<byte[], byte[]> poll(Duration timeout) {
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return super.poll(timeout);
        }
    }

    @Test
    void aPollThatFailsDeposesClosesAndRejoinsWithANewConsumerUntilStopped() throws Exception {
        List<Member> members = new CopyOnWriteArrayList<>();
        List<Map<String, Object>> configs = new CopyOnWriteArrayList<>();
        AtomicInteger elected = new AtomicInteger();
        AtomicInteger deposed = new AtomicInteger();
        LeaderElection election = new LeaderElection(
                config -> {
                    configs.add(config);
                    Member m = new Member();
                    members.add(m);
                    return m;
                },
                "election",
                Optional.empty(),
                Duration.ofSeconds(6),
                elected::incrementAndGet,
                deposed::incrementAndGet,
                Duration.ofMillis(50));
        Thread t = Thread.ofPlatform().name("election").start(election);
        try {
            await().atMost(Duration.ofSeconds(5)).until(election::isLeader);
            members.getFirst().setPollException(new KafkaException("the broker's answer made no sense"));

            await().atMost(Duration.ofSeconds(5)).until(() -> members.size() == 2 && election.isLeader());
            assertThat(members.getFirst().closed())
                    .as("the failed member's consumer")
                    .isTrue();
            assertThat(deposed).as("deposed before the rejoin").hasValue(1);
            assertThat(elected).hasValue(2);
            assertThat(election.rejoins()).isEqualTo(1);

            // Failures in a row: the pause grows (50, 100 ms), and it rejoins each time.
            members.get(1).setPollException(new KafkaException("again"));
            await().atMost(Duration.ofSeconds(5)).until(() -> members.size() == 3 && election.isLeader());
            assertThat(election.rejoins()).isEqualTo(2);
        } finally {
            election.stop();
            t.join(Duration.ofSeconds(5));
        }
        assertThat(t.isAlive()).isFalse();
        assertThat(election.isLeader()).isFalse();
        assertThat(deposed).hasValue(3);
        assertThat(members).hasSize(3).allSatisfy(m -> assertThat(m.closed()).isTrue());
        assertThat(configs)
                .as("every membership's consumer joins the one group, with the session timeout")
                .hasSize(3)
                .allSatisfy(c -> assertThat(c)
                        .containsEntry("group.id", "election")
                        .containsEntry("session.timeout.ms", 6000)
                        .containsEntry("enable.auto.commit", false));
    }
}
