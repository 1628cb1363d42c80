package io.lahar.core.scheduling.framework;

import io.lahar.core.scheduling.api.Snapshot;

/** Runs one scheduling session: open over the snapshot, run the configured actions, close. */
public final class Scheduler {
    private final SchedulerConf conf;
    private final PluginRegistry registry;

    public Scheduler(SchedulerConf conf) {
        this(conf, PluginRegistry.defaults());
    }

    public Scheduler(SchedulerConf conf, PluginRegistry registry) {
        this.conf = conf;
        this.registry = registry;
    }

    /** With Volcano's default configuration. */
    public static Scheduler withDefaults() {
        return new Scheduler(SchedulerConf.defaults());
    }

    public SessionResult schedule(Snapshot snapshot) {
        return Session.open(conf, snapshot, registry).run(registry);
    }
}
