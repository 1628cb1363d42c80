package io.lahar.core.job;

import io.lahar.core.api.Action;
import java.time.Duration;

/**
 * What the lifecycle policies decided for a request: the action, how long to wait before it
 * (zero: now), and which policy said so ({@code spec.tasks[1].policies[0]}), null when none did.
 */
public record PolicyMatch(Action action, Duration delay, String policy) {

    public static PolicyMatch sync() {
        return new PolicyMatch(Action.SYNC_JOB, Duration.ZERO, null);
    }

    public boolean delayed() {
        return !delay.isZero() && !delay.isNegative();
    }
}
