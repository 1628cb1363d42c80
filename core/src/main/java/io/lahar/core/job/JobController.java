package io.lahar.core.job;

import io.lahar.core.job.plugins.JobPluginRegistry;

/**
 * Volcano's job controller as a pure function: {@code apply(state, input)} gives the new state,
 * the phase transitions and what the world must do. No clock, no randomness, no I/O: the same
 * inputs give the same outcome, byte for byte.
 */
public final class JobController {

    /** Pod groups derived from unchanged specs are reused: a cache, invisible in the outcome. */
    private final SpecMemo specs;

    private final JobPluginRegistry plugins;

    public JobController() {
        this(SpecMemo.DEFAULT_CAPACITY);
    }

    /**
     * @param jobsKept how many jobs' derivations to remember: as many as the caller keeps job objects
     *     for (a job decoded afresh brings a new spec object, which the memo misses by identity)
     */
    public JobController(int jobsKept) {
        this(jobsKept, JobPluginRegistry.defaults());
    }

    /** @param plugins the job plugins jobs may name: those admission accepts ({@link JobPluginRegistry#defaults()}) */
    public JobController(int jobsKept, JobPluginRegistry plugins) {
        this.specs = new SpecMemo(jobsKept);
        this.plugins = plugins;
    }

    public Outcome apply(JobInfo state, Input input) {
        ControllerRun run = new ControllerRun(state == null ? JobInfo.empty() : state, input.time(), specs, plugins);
        run.handle(input);
        return run.outcome();
    }
}
