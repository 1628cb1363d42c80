package io.lahar.bridge;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;
import org.eclipse.microprofile.health.Readiness;

/**
 * {@code /q/health}: live while the input loop runs and polls (a loop that died, e.g. Kafka
 * unreachable for good, or one held for {@link io.lahar.schema.PollWatch#LIMIT} in a call that
 * never returns, needs a restart); ready while it also reads its input — not while it puts records off
 * because the cluster or the schema registry does not answer (it reads on when they are back).
 */
public final class BridgeHealth {

    private BridgeHealth() {}

    @Liveness
    @ApplicationScoped
    public static class Live implements HealthCheck {
        @Inject
        BridgeService service;

        @Override
        public HealthCheckResponse call() {
            return HealthCheckResponse.named("k8s-bridge")
                    .status(!service.enabled() || service.running())
                    .build();
        }
    }

    @Readiness
    @ApplicationScoped
    public static class Ready implements HealthCheck {
        @Inject
        BridgeService service;

        @Override
        public HealthCheckResponse call() {
            boolean reading = service.running() && service.holding().isEmpty();
            return HealthCheckResponse.named("k8s-bridge input")
                    .status(!service.enabled() || reading)
                    .withData(
                            "input",
                            service.holding().map(why -> "held: " + why).orElse("read"))
                    .build();
        }
    }
}
