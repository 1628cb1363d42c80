package io.lahar.bridge.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class RetryTest {

    private final List<Duration> slept = new ArrayList<>();
    private final Retry retry = new Retry(5, Duration.ofMillis(100), Duration.ofMillis(300), slept::add);

    private static KubernetesClientException status(int code) {
        return new KubernetesClientException("status " + code, code, null);
    }

    @Test
    void transientFailuresAreRetriedWithGrowingCappedBackoff() {
        AtomicInteger calls = new AtomicInteger();
        String result = retry.call(() -> {
            if (calls.incrementAndGet() < 4) {
                throw status(calls.get() == 1 ? 0 : calls.get() == 2 ? 503 : 429);
            }
            return "ok";
        });
        assertThat(result).isEqualTo("ok");
        assertThat(slept).containsExactly(Duration.ofMillis(100), Duration.ofMillis(200), Duration.ofMillis(300));
    }

    @Test
    void conflictsAndAbsencesAreAnswersNotRetried() {
        for (int code : new int[] {404, 409, 400, 422}) {
            AtomicInteger calls = new AtomicInteger();
            assertThatThrownBy(() -> retry.call(() -> {
                        calls.incrementAndGet();
                        throw status(code);
                    }))
                    .isInstanceOf(KubernetesClientException.class);
            assertThat(calls).hasValue(1);
        }
        assertThat(slept).isEmpty();
    }

    @Test
    void givesUpAfterTheLastAttempt() {
        AtomicInteger calls = new AtomicInteger();
        assertThatThrownBy(() -> retry.run(() -> {
                    calls.incrementAndGet();
                    throw status(500);
                }))
                .isInstanceOf(KubernetesClientException.class);
        assertThat(calls).hasValue(5);
        assertThat(slept).hasSize(4);
    }
}
