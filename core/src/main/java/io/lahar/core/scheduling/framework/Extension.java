package io.lahar.core.scheduling.framework;

/**
 * The kinds of functions a plugin registers with the session, each with the per-plugin switch
 * Volcano's scheduler-conf uses to turn it off ({@code enabledQueueOrder: false}).
 */
public enum Extension {
    JOB_ORDER("enabledJobOrder"),
    QUEUE_ORDER("enabledQueueOrder"),
    TASK_ORDER("enabledTaskOrder"),
    NAMESPACE_ORDER("enabledNamespaceOrder"),
    PREDICATE("enabledPredicate"),
    NODE_ORDER("enabledNodeOrder"),
    BEST_NODE("enabledBestNode"),
    PREEMPTABLE("enabledPreemptable"),
    PREEMPTIVE("enabledPreemptive"),
    RECLAIMABLE("enabledReclaimable"),
    OVERUSED("enabledOverused"),
    ALLOCATABLE("enabledAllocatable"),
    JOB_READY("enabledJobReady"),
    JOB_PIPELINED("enabledJobPipelined"),
    JOB_VALID("enabledJobValid"),
    JOB_ENQUEUED("enabledJobEnqueued"),
    JOB_STARVING("enabledJobStarving"),
    HIERARCHY("enabledHierarchy"),
    VICTIM("enabledVictim");

    private final String confKey;

    /** Whether a plugin entry that does not name this switch has it on (Volcano: all but enableHierarchy). */
    public boolean onByDefault() {
        return this != HIERARCHY;
    }

    Extension(String confKey) {
        this.confKey = confKey;
    }

    /** The key of this switch in a plugin's scheduler-conf entry. */
    public String confKey() {
        return confKey;
    }

    public static Extension byConfKey(String key) {
        for (Extension e : values()) {
            if (e.confKey.equals(key)) {
                return e;
            }
        }
        return null;
    }
}
