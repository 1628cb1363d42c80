package io.lahar.core.scheduling.framework;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.api.PodGroupPhase;
import io.lahar.core.scheduling.api.JobInfo;
import io.lahar.core.scheduling.api.NodeInfo;
import io.lahar.core.scheduling.api.Snapshot;
import io.lahar.core.scheduling.api.SubGroupPolicy;
import io.lahar.core.scheduling.api.TaskInfo;
import io.lahar.core.scheduling.api.TaskStatus;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A session job's gang counts after Volcano's {@code TestJobInfo} (pkg/scheduler/api/job_info_test.go),
 * {@code TestSubJobInfo_IsPipelined} and {@code TestSubJobInfo_IsReady} (sub_job_info_test.go), and
 * its CheckTaskReady and CheckTaskPipelined: a pending best-effort task counts as ready.
 */
class SessionJobTest {

    private static final NodeInfo NODE = NodeInfo.builder("n0")
            .allocatable(Map.of("cpu", "100", "memory", "100Gi"))
            .build();

    private static TaskInfo task(String name, String role, TaskStatus s, boolean bestEffort) {
        TaskInfo.Builder b = TaskInfo.builder(name).role(role);
        if (!bestEffort) b.resreq(Map.of("cpu", "100m"));
        return b.on(s == TaskStatus.Pending ? null : "n0", s).build();
    }

    private static SessionJob open(JobInfo j) {
        Session ssn = Session.open(
                SchedulerConf.defaults(),
                new Snapshot(List.of(NODE), List.of(), List.of(j)),
                PluginRegistry.defaults());
        return ssn.job(j.key());
    }

    /** Volcano's six tasks: pending, pipelined and running, best-effort and not. */
    private static JobInfo.Builder sixTasks(int minAvailable) {
        JobInfo.Builder b = JobInfo.builder("job-1").minMember(minAvailable).phase(PodGroupPhase.Inqueue);
        for (TaskStatus s : List.of(TaskStatus.Pending, TaskStatus.Pipelined, TaskStatus.Running)) {
            String state = s.name().toLowerCase(java.util.Locale.ROOT);
            b.task(task(state + "-besteffort-task-1", "", s, true));
            b.task(task(state + "-unbesteffort-task-1", "", s, false));
        }
        return b;
    }

    @Test
    void aStarvingJob() {
        SessionJob j = open(sixTasks(5).build());
        assertThat(j.pendingBestEffortTaskNum()).isEqualTo(1);
        assertThat(j.minMemberReady()).isFalse();
        assertThat(j.minMemberPipelined()).isTrue();
        assertThat(j.isStarving()).isTrue();
    }

    @Test
    void aReadyJob() {
        SessionJob j = open(sixTasks(3).build());
        assertThat(j.pendingBestEffortTaskNum()).isEqualTo(1);
        assertThat(j.minMemberReady()).isTrue();
        assertThat(j.isReady()).isTrue();
        assertThat(j.minMemberPipelined()).isTrue();
        assertThat(j.isStarving()).isFalse();
    }

    /** Volcano's getJobAllocatedRoles: a role's pending best-effort tasks count towards its minTaskMember. */
    @Test
    void aRolesPendingBestEffortTasksCountTowardsItsMinimum() {
        JobInfo.Builder b = JobInfo.builder("roles")
                .minMember(2)
                .minTaskMember("ps", 1)
                .minTaskMember("worker", 1)
                .phase(PodGroupPhase.Inqueue)
                .task(task("ps-0", "ps", TaskStatus.Pending, true))
                .task(task("worker-0", "worker", TaskStatus.Running, false));
        SessionJob j = open(b.build());
        assertThat(j.isReady()).isTrue();
        assertThat(j.isPipelined()).isTrue();

        SessionJob notBestEffort = open(JobInfo.builder("roles")
                .minMember(2)
                .minTaskMember("ps", 1)
                .minTaskMember("worker", 1)
                .phase(PodGroupPhase.Inqueue)
                .task(task("ps-0", "ps", TaskStatus.Pending, false))
                .task(task("worker-0", "worker", TaskStatus.Running, false))
                .task(task("worker-1", "worker", TaskStatus.Running, false))
                .build());
        assertThat(notBestEffort.minMemberReady()).isTrue();
        assertThat(notBestEffort.isReady()).isFalse();
        assertThat(notBestEffort.unmetRoles(false, false)).containsExactly("ps 0/1");
    }

    /** CheckTaskPipelined: ready, pipelined and pending best-effort tasks of the role. */
    @Test
    void aRoleIsPipelinedWithItsPendingBestEffortAndPipelinedTasks() {
        SessionJob j = open(JobInfo.builder("roles")
                .minMember(3)
                .minTaskMember("ps", 2)
                .minTaskMember("worker", 1)
                .phase(PodGroupPhase.Inqueue)
                .task(task("ps-0", "ps", TaskStatus.Pending, true))
                .task(task("ps-1", "ps", TaskStatus.Pipelined, false))
                .task(task("worker-0", "worker", TaskStatus.Running, false))
                .build());
        assertThat(j.isReady()).isFalse();
        assertThat(j.isPipelined()).isTrue();
    }

    private static JobInfo.Builder partitioned(int size) {
        return JobInfo.builder("parts")
                .minMember(1)
                .phase(PodGroupPhase.Inqueue)
                .subGroupPolicy(new SubGroupPolicy("p", size, 1, Map.of(), List.of("part")));
    }

    private static TaskInfo part(String name, TaskStatus s, boolean bestEffort) {
        TaskInfo.Builder b = TaskInfo.builder(name).role("w").labels(Map.of("part", "0"));
        if (!bestEffort) b.resreq(Map.of("cpu", "100m"));
        return b.on(s == TaskStatus.Pending ? null : "n0", s).build();
    }

    /** Volcano's "Some tasks are pending best-effort and some are pipelined": a sub-group of three, pipelined. */
    @Test
    void aSubGroupOfPendingBestEffortAndPipelinedTasksIsPipelined() {
        SessionJob j = open(partitioned(3)
                .task(part("task1", TaskStatus.Pending, true))
                .task(part("task2", TaskStatus.Pending, true))
                .task(part("task3", TaskStatus.Pipelined, false))
                .build());
        assertThat(j.unmetSubGroups(true)).isEmpty();
        assertThat(j.unmetSubGroups(false)).containsExactly("p 0/1");
    }

    /** Volcano's "Some tasks are pending not best-effort": a pending task that needs resources does not count. */
    @Test
    void aSubGroupWithAPendingTaskThatNeedsResourcesIsNotPipelined() {
        SessionJob j = open(partitioned(3)
                .task(part("task1", TaskStatus.Pending, true))
                .task(part("task2", TaskStatus.Pending, false))
                .task(part("task3", TaskStatus.Pipelined, false))
                .build());
        assertThat(j.unmetSubGroups(true)).containsExactly("p 0/1");
    }

    /** TestSubJobInfo_IsReady: ready and pending best-effort tasks make the sub-group whole. */
    @Test
    void aSubGroupOfReadyAndPendingBestEffortTasksIsReady() {
        SessionJob j = open(partitioned(3)
                .task(part("task1", TaskStatus.Pending, true))
                .task(part("task2", TaskStatus.Running, false))
                .task(part("task3", TaskStatus.Succeeded, false))
                .build());
        assertThat(j.unmetSubGroups(false)).isEmpty();
        assertThat(j.isReady()).isTrue();
    }
}
