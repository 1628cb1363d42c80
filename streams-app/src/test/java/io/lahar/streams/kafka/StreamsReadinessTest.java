package io.lahar.streams.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Optional;
import org.apache.kafka.streams.KafkaStreams;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.junit.jupiter.api.Test;

class StreamsReadinessTest {

    @Test
    void readyOnlyWhileRunningWithTheRegistryAnswering() {
        assertThat(Arrays.stream(KafkaStreams.State.values())
                        .filter(state ->
                                StreamsReadiness.check(state, Optional.empty()).getStatus()
                                        == HealthCheckResponse.Status.UP))
                .containsExactly(KafkaStreams.State.RUNNING);
        HealthCheckResponse waiting = StreamsReadiness.check(
                KafkaStreams.State.RUNNING, Optional.of("the schema registry ... has not answered"));
        assertThat(waiting.getStatus()).isEqualTo(HealthCheckResponse.Status.DOWN);
        assertThat(waiting.getData().orElseThrow())
                .containsEntry("state", "RUNNING")
                .containsEntry("registry", "the schema registry ... has not answered");
    }
}
