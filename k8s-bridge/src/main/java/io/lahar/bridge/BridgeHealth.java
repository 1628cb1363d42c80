package io.lahar.bridge;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;

/** Live while the input loop runs: a loop that died (e.g. Kafka unreachable for good) needs a restart. */
@Liveness
@ApplicationScoped
public class BridgeHealth implements HealthCheck {

    @Inject
    BridgeService service;

    @ConfigProperty(name = "lahar.bridge.enabled", defaultValue = "true")
    boolean enabled;

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.named("k8s-bridge").status(!enabled || service.running()).build();
    }
}
