package io.lahar.scheduler.service;

import io.lahar.scheduler.loop.LoopState;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;
import org.eclipse.microprofile.health.Readiness;

/**
 * {@code /q/health}: ready while the loop is the active writer and reads its input; live unless it
 * failed for good, or its thread has not polled for {@link io.lahar.schema.PollWatch#LIMIT} (held in
 * a call that never returns: only a restart of the process ends that). A standby and a fenced instance stay live (a restart would only fence the active
 * instance in turn) but report not ready; so does a loop whose input is held while the schema
 * registry does not answer (it goes on deciding on what it has, and reads on when the registry is
 * back), and a loop that failed and waits for the new one the service starts in-process
 * ({@code RESTARTING}; {@code restarts} counts them).
 */
public final class SchedulerHealth {

    private SchedulerHealth() {}

    static HealthCheckResponse response(String name, boolean up, SchedulerService service) {
        return HealthCheckResponse.named(name)
                .status(up)
                .withData("state", service.state().name())
                .withData("epoch", service.epoch())
                .withData("leader", service.leader())
                .withData("input", service.holding().map(why -> "held: " + why).orElse("read"))
                .withData("restarts", service.restarts())
                .build();
    }

    @Readiness
    @ApplicationScoped
    public static class Ready implements HealthCheck {
        @Inject
        SchedulerService service;

        @Override
        public HealthCheckResponse call() {
            return response(
                    "scheduler",
                    !service.enabled()
                            || (service.state() == LoopState.ACTIVE
                                    && service.holding().isEmpty()),
                    service);
        }
    }

    @Liveness
    @ApplicationScoped
    public static class Live implements HealthCheck {
        @Inject
        SchedulerService service;

        @Override
        public HealthCheckResponse call() {
            return response("scheduler-loop", service.state() != LoopState.FAILED && service.polling(), service);
        }
    }
}
