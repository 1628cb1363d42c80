package io.lahar.console;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/** Ready once the views hold every public topic up to where it ended when the console started. */
@Readiness
@ApplicationScoped
public class ConsoleHealth implements HealthCheck {

    @Inject
    ConsoleService console;

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.named("console-views")
                .status(console.caughtUp())
                .withData("readOnly", console.actions().readOnly())
                .build();
    }
}
