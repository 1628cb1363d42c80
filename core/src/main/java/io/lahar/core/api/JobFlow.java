package io.lahar.core.api;

import java.util.List;
import java.util.Map;

/** flow.volcano.sh/v1alpha1 JobFlow: a DAG of jobs made from JobTemplates. */
public record JobFlow(String apiVersion, String kind, ObjectMeta metadata, JobFlowSpec spec, JobFlowStatus status)
        implements Manifest {

    public static final String API_VERSION = "flow.volcano.sh/v1alpha1";
    public static final String KIND = "JobFlow";

    public JobFlow withSpec(JobFlowSpec newSpec) {
        return new JobFlow(apiVersion, kind, metadata, newSpec, status);
    }

    public JobFlow withStatus(JobFlowStatus newStatus) {
        return new JobFlow(apiVersion, kind, metadata, spec, newStatus);
    }

    /** The flows and whether to keep the created jobs after success ({@code retain}|{@code delete}). */
    public record JobFlowSpec(List<Flow> flows, String jobRetainPolicy) {

        public static final String RETAIN = "retain";
        public static final String DELETE = "delete";

        public List<Flow> flowsOrEmpty() {
            return flows == null ? List.of() : flows;
        }

        public JobFlowSpec withFlows(List<Flow> v) {
            return new JobFlowSpec(v, jobRetainPolicy);
        }

        public JobFlowSpec withJobRetainPolicy(String v) {
            return new JobFlowSpec(flows, v);
        }
    }

    /** Volcano's JobFlowStatus: the created jobs grouped by phase, per-job histories, the flow's phase. */
    public record JobFlowStatus(
            List<String> pendingJobs,
            List<String> runningJobs,
            List<String> failedJobs,
            List<String> completedJobs,
            List<String> terminatedJobs,
            List<String> unKnowJobs,
            List<JobStatusEntry> jobStatusList,
            Map<String, Condition> conditions,
            State state) {}

    /** The status of one created job, with its run history. */
    public record JobStatusEntry(
            String name,
            String state,
            String startTimestamp,
            String endTimestamp,
            Integer restartCount,
            List<JobRunningHistory> runningHistories) {}

    public record JobRunningHistory(String startTimestamp, String endTimestamp, String state) {}

    /**
     * Volcano's Condition of one flow entry; {@code message} is Lahar's: why the job is Failed when
     * job admission refused to create it (absent otherwise, and in Volcano's own manifests).
     */
    public record Condition(
            String phase,
            String createTime,
            String runningDuration,
            Map<String, JobStatus.TaskState> taskStatusCount,
            String message) {}

    public record State(JobFlowPhase phase) {}
}
