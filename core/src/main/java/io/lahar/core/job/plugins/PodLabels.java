package io.lahar.core.job.plugins;

/** The label and annotation keys Volcano puts on a job's pods (volcano.sh/apis batch and scheduling). */
public final class PodLabels {

    public static final String JOB_NAME = "volcano.sh/job-name";
    public static final String JOB_NAMESPACE = "volcano.sh/job-namespace";
    public static final String TASK_SPEC = "volcano.sh/task-spec";
    public static final String TASK_INDEX = "volcano.sh/task-index";
    public static final String QUEUE_NAME = "volcano.sh/queue-name";
    public static final String JOB_VERSION = "volcano.sh/job-version";
    public static final String JOB_RETRY_COUNT = "volcano.sh/job-retry-count";
    public static final String POD_TEMPLATE = "volcano.sh/template-uid";
    public static final String PARTITION_ID = "volcano.sh/task-partition-id";
    public static final String NUMA_POLICY = "volcano.sh/numa-topology-policy";
    public static final String GROUP_NAME = "scheduling.k8s.io/group-name";
    /** "false" keeps a pod from being preempted or reclaimed (an annotation or a label). */
    public static final String PREEMPTABLE = "volcano.sh/preemptable";

    public static final String COOLDOWN_TIME = "volcano.sh/cooldown-time";
    public static final String REVOCABLE_ZONE = "volcano.sh/revocable-zone";
    public static final String JDB_MIN_AVAILABLE = "volcano.sh/jdb-min-available";
    public static final String JDB_MAX_UNAVAILABLE = "volcano.sh/jdb-max-unavailable";

    private PodLabels() {}
}
