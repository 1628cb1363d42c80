package io.lahar.core.scheduling.framework;

import static io.lahar.core.scheduling.Fixtures.gang;
import static io.lahar.core.scheduling.Fixtures.key;
import static io.lahar.core.scheduling.Fixtures.nodes;
import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.api.PodGroupPhase;
import io.lahar.core.scheduling.Fixtures;
import io.lahar.core.scheduling.api.JobInfo;
import io.lahar.core.scheduling.api.NodeInfo;
import io.lahar.core.scheduling.api.Problem;
import io.lahar.core.scheduling.api.QueueInfo;
import io.lahar.core.scheduling.api.Snapshot;
import io.lahar.core.scheduling.api.TaskInfo;
import io.lahar.core.scheduling.api.TaskStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SessionTest {

    @Test
    void badSnapshotEntriesAreReportedWithPathsAndSkipped() {
        JobInfo ghost = JobInfo.builder("ghost")
                .task(TaskInfo.builder("g-0")
                        .resreq(Map.of("cpu", "1"))
                        .on("nowhere", TaskStatus.Running)
                        .build())
                .build();
        JobInfo dup = JobInfo.builder("ok").tasks("w", 1, Map.of("cpu", "1")).build();
        Snapshot s = new Snapshot(
                List.of(Fixtures.node("n0", "4", "4Gi"), Fixtures.node("n0", "8", "8Gi")),
                List.of(QueueInfo.of("q", 0), QueueInfo.of("child", 1).withParent("missing")),
                List.of(ghost, dup, dup));
        SessionResult r = new Scheduler(SchedulerConf.defaults()).schedule(s);
        assertThat(r.problems())
                .extracting(Problem::path)
                .containsExactlyInAnyOrder(
                        "nodes[1].name",
                        "queues[0].weight",
                        "queues[1].parent",
                        "jobs[0].tasks[0].nodeName",
                        "jobs[2].name");
        assertThat(r.conditions().get(key("ghost")).reason()).isEqualTo("InvalidPodGroup");
        assertThat(r.conditions().get(key("ghost")).message()).contains("unknown node \"nowhere\"");
        assertThat(r.bindings())
                .as(r.conditions().toString())
                .extracting(SessionResult.Binding::job)
                .containsExactly(key("ok"));
    }

    @Test
    void sameSnapshotSameDecisions() {
        List<JobInfo> jobs = new ArrayList<>();
        for (int i = 0; i < 20; i++) jobs.add(gang("j" + i, i % 2 == 0 ? "a" : "b", 3, 2, (i % 3 + 1) + ""));
        List<NodeInfo> ns = nodes(7, "5", "16Gi");
        List<QueueInfo> qs = List.of(QueueInfo.of("a", 2), QueueInfo.of("b", 1));
        SessionResult first = Fixtures.run(ns, qs, jobs);
        List<JobInfo> reversed = new ArrayList<>(jobs);
        java.util.Collections.reverse(reversed);
        List<NodeInfo> nsReversed = new ArrayList<>(ns);
        java.util.Collections.reverse(nsReversed);
        SessionResult second = Fixtures.run(nsReversed, qs, reversed);
        assertThat(second.bindings()).containsExactlyElementsOf(first.bindings());
        assertThat(second.conditions()).isEqualTo(first.conditions());
    }

    @Test
    void phasesMoveFromPendingThroughInqueueToRunning() {
        SessionResult r = Fixtures.run(nodes(1, "4", "8Gi"), List.of(), List.of(gang("j", "default", 2, 2, "1")));
        assertThat(r.phaseChanges())
                .containsExactly(new SessionResult.PhaseChange(key("j"), PodGroupPhase.Pending, PodGroupPhase.Running));
        SessionResult enqueueOnly = Fixtures.run(
                Fixtures.defaultTiers("enqueue"),
                nodes(1, "4", "8Gi"),
                List.of(),
                List.of(gang("j", "default", 2, 2, "1")));
        assertThat(enqueueOnly.phaseChanges())
                .containsExactly(new SessionResult.PhaseChange(key("j"), PodGroupPhase.Pending, PodGroupPhase.Inqueue));
        assertThat(enqueueOnly.conditions().get(key("j")).message())
                .isEqualTo("2/2 tasks in gang unschedulable: pod group is waiting for resources");
    }

    /** Volcano's jobStatus: minMember tasks held a node or finished, and none holds one now. */
    @Test
    void aGangWhoseTasksAllFinishedIsCompletedFailedOnesIncluded() {
        JobInfo done = JobInfo.builder("done")
                .queue("default")
                .phase(PodGroupPhase.Running)
                .minMember(3)
                .task(TaskInfo.builder("done-0")
                        .resreq(Map.of("cpu", "1"))
                        .status(TaskStatus.Succeeded)
                        .build())
                .task(TaskInfo.builder("done-1")
                        .resreq(Map.of("cpu", "1"))
                        .status(TaskStatus.Succeeded)
                        .build())
                .task(TaskInfo.builder("done-2")
                        .resreq(Map.of("cpu", "1"))
                        .status(TaskStatus.Failed)
                        .build())
                .build();
        JobInfo finishing = JobInfo.builder("finishing")
                .queue("default")
                .phase(PodGroupPhase.Running)
                .minMember(2)
                .task(TaskInfo.builder("finishing-0")
                        .resreq(Map.of("cpu", "1"))
                        .status(TaskStatus.Succeeded)
                        .build())
                .task(TaskInfo.builder("finishing-1")
                        .resreq(Map.of("cpu", "1"))
                        .on("n0", TaskStatus.Running)
                        .build())
                .build();
        SessionResult r = Fixtures.run(nodes(1, "4", "8Gi"), List.of(), List.of(done, finishing));
        assertThat(r.phaseChanges())
                .containsExactly(
                        new SessionResult.PhaseChange(key("done"), PodGroupPhase.Running, PodGroupPhase.Completed));
        assertThat(r.conditions()).doesNotContainKey(key("done"));
    }

    /** Completed is worked out again each session: a task created again is placed, and the group runs. */
    @Test
    void aCompletedGroupWithATaskCreatedAgainIsAllocatedAndRunsAgain() {
        JobInfo again = JobInfo.builder("again")
                .queue("default")
                .phase(PodGroupPhase.Completed)
                .minMember(2)
                .task(TaskInfo.builder("again-0")
                        .resreq(Map.of("cpu", "1"))
                        .status(TaskStatus.Succeeded)
                        .build())
                .task(TaskInfo.builder("again-1")
                        .resreq(Map.of("cpu", "1"))
                        .status(TaskStatus.Pending)
                        .build())
                .build();
        SessionResult r = Fixtures.run(nodes(1, "4", "8Gi"), List.of(), List.of(again));
        assertThat(r.bindings()).extracting(SessionResult.Binding::task).containsExactly("again-1");
        assertThat(r.phaseChanges())
                .containsExactly(
                        new SessionResult.PhaseChange(key("again"), PodGroupPhase.Completed, PodGroupPhase.Running));
    }

    @Test
    void anAdmittedGangWhosePodsDoNotExistYetIsNotUnschedulable() {
        // Volcano's gang skips a group without tasks: it waits for its pods, not for resources.
        JobInfo noPods = JobInfo.builder("j")
                .queue("default")
                .phase(PodGroupPhase.Inqueue)
                .minMember(2)
                .minResources(null)
                .build();
        SessionResult r = Fixtures.run(nodes(1, "4", "8Gi"), List.of(), List.of(noPods));
        assertThat(r.conditions()).doesNotContainKey(key("j"));
        assertThat(r.phaseOf(key("j"), PodGroupPhase.Inqueue)).isEqualTo(PodGroupPhase.Inqueue);
    }

    @Test
    void withoutEnqueueAllocateTakesPendingGroups() {
        SessionResult r = Fixtures.run(
                Fixtures.defaultTiers("allocate"),
                nodes(1, "4", "8Gi"),
                List.of(),
                List.of(gang("j", "default", 2, 2, "1")));
        assertThat(r.bindings()).hasSize(2);
    }

    @Test
    void aResultWritesAsJson() throws Exception {
        SessionResult r = Fixtures.run(nodes(1, "4", "8Gi"), List.of(), List.of(gang("j", "default", 2, 2, "1")));
        String json = new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(r);
        assertThat(json)
                .contains(
                        "\"bindings\":[{\"job\":\"default/j\",\"task\":\"j-worker-0\",\"node\":\"n0\",\"action\":\"allocate\"}")
                .contains("\"deserved\":{\"cpu\":\"2\",\"memory\":\"2Gi\"}");
    }
}
