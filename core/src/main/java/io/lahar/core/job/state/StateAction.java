package io.lahar.core.job.state;

import io.lahar.core.api.Action;

/** An action handed to the current phase's state, with its target for task/pod-level actions. */
public record StateAction(Action action, Target target) {

    public static StateAction of(Action action) {
        return new StateAction(action, null);
    }
}
