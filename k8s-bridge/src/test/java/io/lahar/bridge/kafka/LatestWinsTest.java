package io.lahar.bridge.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class LatestWinsTest {

    private final List<String> written = Collections.synchronizedList(new ArrayList<>());
    private final List<Long> deadLettered = Collections.synchronizedList(new ArrayList<>());
    private final AtomicInteger retries = new AtomicInteger();
    private final LatestWins.Failure failure = new LatestWins.Failure() {
        @Override
        public boolean failed(ConsumerRecord<String, byte[]> latest, RuntimeException error) {
            deadLettered.add(latest.offset());
            return true;
        }

        @Override
        public void retrying(String key, RuntimeException error) {
            retries.incrementAndGet();
        }
    };
    private LatestWins<String> writes;

    @AfterEach
    void tearDown() {
        writes.close();
    }

    private LatestWins<String> writes(LatestWins.Writer<String> writer) {
        writes = new LatestWins<>(
                writer, (a, b) -> a + "+" + b, failure, 2, Duration.ofMillis(10), Duration.ofMillis(40));
        return writes;
    }

    @Test
    void workHandedInWhileAWriteIsUnderWayIsFoldedIntoOneWriteAfterIt() throws InterruptedException {
        CountDownLatch firstStarted = new CountDownLatch(1);
        CountDownLatch firstMayFinish = new CountDownLatch(1);
        writes(new LatestWins.Writer<>() {
            @Override
            public void write(String key, String work) {
                if (work.equals("s1")) {
                    firstStarted.countDown();
                    hold(firstMayFinish);
                }
                written.add(key + ":" + work);
            }
        });

        writes.offer("ns/a", "s1", record(1));
        assertThat(firstStarted.await(10, TimeUnit.SECONDS)).isTrue();
        writes.offer("ns/a", "s2", record(2));
        writes.offer("ns/a", "s3", record(3));
        writes.offer("ns/b", "t1", record(4));
        await().atMost(Duration.ofSeconds(10)).until(() -> written.contains("ns/b:t1"));
        assertThat(writes.pending("ns/a"))
                .as("held until its latest work is written")
                .isTrue();
        assertThat(writes.pending("ns/b")).isFalse();

        firstMayFinish.countDown();
        writes.settle(Duration.ofSeconds(10));

        assertThat(written).containsExactly("ns/b:t1", "ns/a:s1", "ns/a:s2+s3");
        assertThat(writes.pending("ns/a")).isFalse();
        assertThat(writes.pendingCount()).isZero();
    }

    @Test
    void aPassingFailureIsTriedAgainBeforeWhatCameMeanwhile() {
        AtomicInteger calls = new AtomicInteger();
        writes((key, work) -> {
            if (calls.incrementAndGet() <= 2) {
                writes.offer(key, "s" + (calls.get() + 1), record(calls.get() + 1));
                throw new KubernetesClientException("unavailable", 503, null);
            }
            written.add(work);
        });

        writes.offer("ns/a", "s1", record(1));
        await().atMost(Duration.ofSeconds(10)).until(() -> !writes.pending("ns/a"));

        assertThat(written).containsExactly("s1+s2+s3");
        assertThat(retries).hasValue(2);
        assertThat(deadLettered).isEmpty();
    }

    @Test
    void aWriteThatCanNeverSucceedIsHandedOnWithTheLatestRecordAndTheObjectIsFreed() {
        writes((key, work) -> {
            throw new KubernetesClientException("invalid", 422, null);
        });

        writes.offer("ns/a", "s1", record(7));
        await().atMost(Duration.ofSeconds(10)).until(() -> !writes.pending("ns/a"));

        assertThat(deadLettered).containsExactly(7L);
        assertThat(retries).hasValue(0);
    }

    private static ConsumerRecord<String, byte[]> record(long offset) {
        return new ConsumerRecord<>("lahar.job-status", 0, offset, "ns/a", new byte[0]);
    }

    private static void hold(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
