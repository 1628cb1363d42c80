package io.lahar.streams.job;

/** Names of the job lifecycle's sink nodes, one per output topic. */
public final class Sinks {

    public static final String RESULTS = "command-results-sink";
    public static final String STATUS = "job-status-sink";
    public static final String TRANSITIONS = "job-transitions-sink";
    public static final String POD_INTENTS = "pod-intents-sink";
    public static final String POD_GROUPS = "pod-groups-sink";
    public static final String DEAD_LETTERS = "dead-letters-sink";

    private Sinks() {}
}
