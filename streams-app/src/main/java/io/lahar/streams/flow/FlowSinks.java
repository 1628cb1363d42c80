package io.lahar.streams.flow;

/** Names of the flow engine's sink nodes, one per output topic. */
public final class FlowSinks {

    public static final String RESULTS = "flow-command-results-sink";
    public static final String JOB_COMMANDS = "flow-job-commands-sink";
    public static final String FLOW_STATUS = "flow-status-sink";
    public static final String TEMPLATES = "job-templates-sink";
    public static final String DEAD_LETTERS = "flow-dead-letters-sink";

    private FlowSinks() {}
}
