package io.lahar.bridge.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class CallLanesTest {

    private static final TopicPartition INTENTS = new TopicPartition("lahar.pod-intents", 0);

    private final CallLanes lanes = new CallLanes(4);
    private final List<CallLanes.Done> done = Collections.synchronizedList(new ArrayList<>());

    @AfterEach
    void tearDown() {
        lanes.close();
    }

    @Test
    void onePodsWorkRunsInTheOrderItWasReadWhileAnotherPodsProceeds() throws InterruptedException {
        CountDownLatch createMayFinish = new CountDownLatch(1);
        List<String> calls = Collections.synchronizedList(new ArrayList<>());
        lanes.submit("pod:ns/a", INTENTS, 1, () -> {
            await(createMayFinish);
            calls.add("create a");
            return BridgeConsumer.Verdict.DONE;
        });
        lanes.submit("pod:ns/a", INTENTS, 2, () -> {
            calls.add("bind a");
            return BridgeConsumer.Verdict.DONE;
        });
        lanes.submit("pod:ns/b", INTENTS, 3, () -> {
            calls.add("create b");
            return BridgeConsumer.Verdict.DONE;
        });

        // b's outcome comes back while a's create still waits for its answer, and a's bind waits
        // behind it. (Waiting on b's call alone raced with its outcome: a busy machine could let a's
        // two calls finish first.)
        assertThat(lanes.await(Duration.ofSeconds(10), done::add)).isEqualTo(1);
        assertThat(calls).containsExactly("create b");
        createMayFinish.countDown();
        lanes.settle(Duration.ofSeconds(10), done::add);

        assertThat(calls).containsExactly("create b", "create a", "bind a");
        assertThat(done).extracting(CallLanes.Done::offset).containsExactly(3L, 1L, 2L);
        assertThat(lanes.inFlight()).isZero();
    }

    @Test
    void workHandedInAfterAnotherLaneRunsOnlyOnceThatLanesEarlierWorkHasRun() throws InterruptedException {
        CountDownLatch claimMayFinish = new CountDownLatch(1);
        List<String> calls = Collections.synchronizedList(new ArrayList<>());
        lanes.submit("objects:ns/j", INTENTS, 1, () -> {
            await(claimMayFinish);
            calls.add("claim");
            return BridgeConsumer.Verdict.DONE;
        });
        lanes.submit("pod:ns/j-w-0", "objects:ns/j", INTENTS, 2, () -> {
            calls.add("create j-w-0");
            return BridgeConsumer.Verdict.DONE;
        });
        lanes.submit("pod:ns/k-w-0", "objects:ns/k", INTENTS, 3, () -> {
            calls.add("create k-w-0");
            return BridgeConsumer.Verdict.DONE;
        });

        // k has no plugin objects under way: its pod goes at once; j's waits for j's claim.
        assertThat(lanes.await(Duration.ofSeconds(10), done::add)).isEqualTo(1);
        assertThat(calls).containsExactly("create k-w-0");
        claimMayFinish.countDown();
        lanes.settle(Duration.ofSeconds(10), done::add);

        assertThat(calls).containsExactly("create k-w-0", "claim", "create j-w-0");
        assertThat(done).extracting(CallLanes.Done::offset).containsExactly(3L, 1L, 2L);
    }

    @Test
    void workAfterAnotherLaneRunsEvenWhenThatLanesWorkFailed() {
        lanes.submit("objects:ns/j", INTENTS, 1, () -> {
            throw new IllegalStateException("refused");
        });
        lanes.submit("pod:ns/j-w-0", "objects:ns/j", INTENTS, 2, () -> BridgeConsumer.Verdict.DONE);

        lanes.settle(Duration.ofSeconds(10), done::add);

        assertThat(done)
                .extracting(CallLanes.Done::verdict)
                .containsExactly(BridgeConsumer.Verdict.LATER, BridgeConsumer.Verdict.DONE);
    }

    @Test
    void theLanesAreFullAtTheirCapacity() throws InterruptedException {
        CountDownLatch release = new CountDownLatch(1);
        for (int i = 0; i < 4; i++) {
            lanes.submit("pod:ns/p" + i, INTENTS, i, () -> {
                await(release);
                return BridgeConsumer.Verdict.DONE;
            });
        }
        assertThat(lanes.full()).isTrue();
        release.countDown();
        lanes.settle(Duration.ofSeconds(10), done::add);
        assertThat(lanes.full()).isFalse();
        assertThat(done).hasSize(4);
    }

    @Test
    void retryWorkIsOfferedOnlyToAnIdleLane() throws InterruptedException {
        CountDownLatch release = new CountDownLatch(1);
        lanes.submit("pod:ns/a", INTENTS, 1, () -> {
            await(release);
            return BridgeConsumer.Verdict.DONE;
        });
        assertThat(lanes.offer("pod:ns/a", () -> {})).isFalse();
        CountDownLatch retried = new CountDownLatch(1);
        assertThat(lanes.offer("pod:ns/b", retried::countDown)).isTrue();
        assertThat(retried.await(10, TimeUnit.SECONDS)).isTrue();
        release.countDown();
        lanes.settle(Duration.ofSeconds(10), done::add);
    }

    @Test
    void workThatThrowsComesBackAsLaterSoItsOffsetIsNeverCommitted() {
        lanes.submit("pod:ns/a", INTENTS, 5, () -> {
            throw new IllegalStateException("boom");
        });
        lanes.settle(Duration.ofSeconds(10), done::add);
        assertThat(done).singleElement().satisfies(d -> {
            assertThat(d.offset()).isEqualTo(5L);
            assertThat(d.verdict().handled()).isEqualTo(BridgeConsumer.Handled.LATER);
        });
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
