package io.lahar.core.api;

/** Volcano's JobFlow phases; the constant names are Volcano's strings. */
public enum JobFlowPhase {
    Pending,
    Running,
    Succeed,
    Terminating,
    Failed;

    public boolean isFinished() {
        return this == Succeed || this == Failed;
    }
}
