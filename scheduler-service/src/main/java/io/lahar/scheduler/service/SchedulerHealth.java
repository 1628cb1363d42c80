package io.lahar.scheduler.service;

import io.lahar.scheduler.loop.LoopState;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;
import org.eclipse.microprofile.health.Readiness;

/**
 * {@code /q/health}: ready while the loop is the active writer; live unless it failed. A standby
 * and a fenced instance stay live (a restart would only fence the active instance in turn) but
 * report not ready.
 */
public final class SchedulerHealth {

    private SchedulerHealth() {
    }

    static HealthCheckResponse response(String name, boolean up, SchedulerService service) {
        return HealthCheckResponse.named(name).status(up)
                .withData("state", service.state().name())
                .withData("epoch", service.epoch())
                .withData("leader", service.leader())
                .build();
    }

    @Readiness
    @ApplicationScoped
    public static class Ready implements HealthCheck {
        @Inject
        SchedulerService service;

        @Override
        public HealthCheckResponse call() {
            return response("scheduler", !service.enabled() || service.state() == LoopState.ACTIVE, service);
        }
    }

    @Liveness
    @ApplicationScoped
    public static class Live implements HealthCheck {
        @Inject
        SchedulerService service;

        @Override
        public HealthCheckResponse call() {
            return response("scheduler-loop", service.state() != LoopState.FAILED, service);
        }
    }
}
