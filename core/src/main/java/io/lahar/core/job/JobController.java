package io.lahar.core.job;

/**
 * Volcano's job controller as a pure function: {@code apply(state, input)} gives the new state,
 * the phase transitions and what the world must do. No clock, no randomness, no I/O: the same
 * inputs give the same outcome, byte for byte.
 */
public final class JobController {

    /** Pod groups derived from unchanged specs are reused: a cache, invisible in the outcome. */
    private final SpecMemo specs = new SpecMemo(SpecMemo.DEFAULT_CAPACITY);

    public Outcome apply(JobInfo state, Input input) {
        ControllerRun run = new ControllerRun(state == null ? JobInfo.empty() : state, input.time(), specs);
        run.handle(input);
        return run.outcome();
    }
}
