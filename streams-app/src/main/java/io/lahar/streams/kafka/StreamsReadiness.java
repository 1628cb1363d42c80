package io.lahar.streams.kafka;

import io.lahar.schema.serde.RegistrySerdes;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Optional;
import org.apache.kafka.streams.KafkaStreams;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * {@code /q/health/ready}: ready while Kafka Streams is RUNNING and the schema registry answers. Not
 * ready while it starts or restores (CREATED, REBALANCING: also after a stream thread was replaced,
 * while its tasks are restored and assigned again), in PENDING_ERROR or ERROR, or while the registry
 * has not answered: the records that need it wait (docs/decisions/020-transient-is-not-poison.md).
 * Liveness stays Quarkus' own check (RUNNING or REBALANCING), so a waiting service is not restarted.
 */
@Readiness
@ApplicationScoped
public class StreamsReadiness implements HealthCheck {

    static final String NAME = "Kafka Streams processing";

    @Inject
    KafkaStreams streams;

    @Inject
    RegistrySerdes serdes;

    @Override
    public HealthCheckResponse call() {
        return check(streams.state(), serdes.outage());
    }

    public static HealthCheckResponse check(KafkaStreams.State state, Optional<String> registryOutage) {
        return HealthCheckResponse.named(NAME)
                .status(state == KafkaStreams.State.RUNNING && registryOutage.isEmpty())
                .withData("state", state.name())
                .withData("registry", registryOutage.orElse("answering"))
                .build();
    }
}
