package io.lahar.core.sim.plan;

import static io.lahar.core.sim.plan.PlanScenarios.boundOf;
import static io.lahar.core.sim.plan.PlanScenarios.group;
import static io.lahar.core.sim.plan.PlanScenarios.inqueue;
import static io.lahar.core.sim.plan.PlanScenarios.job;
import static io.lahar.core.sim.plan.PlanScenarios.node;
import static io.lahar.core.sim.plan.PlanScenarios.nodes;
import static io.lahar.core.sim.plan.PlanScenarios.plan;
import static io.lahar.core.sim.plan.PlanScenarios.pod;
import static io.lahar.core.sim.plan.PlanScenarios.priorityClass;
import static io.lahar.core.sim.plan.PlanScenarios.queue;
import static io.lahar.core.sim.plan.PlanScenarios.runningGroup;
import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.scheduling.framework.SchedulerConf;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class PlannerTest {

    private static final String T0 = "2026-01-01T00:00:00Z";
    private static final String T1 = "2026-01-01T00:00:01Z";

    @Test
    void twoFourPodGangsOnSixSlots_theOlderRunsWholeTheOtherWaits() {
        String yaml =
                nodes(3, "2") + job("b", "default", 4, 4, "1", T1, "", "") + job("a", "default", 4, 4, "1", T0, "", "");
        PlanReport r = plan(yaml);
        assertThat(boundOf(r, "a")).isEqualTo(4);
        assertThat(boundOf(r, "b")).isZero();
        assertThat(group(r, "a").phase()).isEqualTo("Running");
        assertThat(group(r, "b").phase()).isIn("Pending", "Inqueue");
        assertThat(r.converged()).isTrue();
        // No node holds more than its two slots.
        Map<String, Long> perNode =
                r.bindings().stream().collect(Collectors.groupingBy(PlanReport.Binding::node, Collectors.counting()));
        assertThat(perNode.values()).allMatch(c -> c <= 2);
        assertThat(r.bindings()).allMatch(b -> b.action().equals("allocate"));
    }

    @Test
    void queuesWeightedThreeToOneShareEightSlotsSixToTwo() {
        String yaml = nodes(2, "4")
                + queue("big", 3, "")
                + queue("small", 1, "")
                + job("jb", "big", 8, 1, "1", T0, "", "")
                + job("js", "small", 8, 1, "1", T0, "", "");
        PlanReport r = plan(yaml);
        assertThat(boundOf(r, "jb")).isEqualTo(6);
        assertThat(boundOf(r, "js")).isEqualTo(2);
        PlanReport.QueueStatus big = r.queues().stream()
                .filter(q -> q.name().equals("big"))
                .findFirst()
                .orElseThrow();
        assertThat(big.deserved().milliCpu()).isEqualTo(6000);
        assertThat(big.allocated().milliCpu()).isEqualTo(6000);
    }

    @Test
    void reclaimTakesBackWhatAnotherQueueHoldsBeyondItsShare() {
        // Queue "lender" runs 4 pods on the whole cluster; "owner" (same weight) wants 2 of them back.
        StringBuilder y = new StringBuilder(
                nodes(2, "2") + queue("lender", 1, "") + queue("owner", 1, "") + runningGroup("old", "lender", 1, ""));
        for (int i = 0; i < 4; i++) y.append(pod("old", i, "n" + (i / 2), "1", "", ""));
        // A full cluster keeps a new job out of enqueue (overcommit); this one is already Inqueue.
        y.append(job("new", "owner", 2, 2, "1", T1, "", "")).append(inqueue("new", "owner", 2));
        PlanReport r = plan(y.toString(), SchedulerConf.parse(PlanScenarios.RECLAIM_CONF), null);
        assertThat(r.evictions())
                .hasSize(2)
                .allMatch(e -> e.action().equals("reclaim") && e.pod().startsWith("old-w-"));
        assertThat(boundOf(r, "new")).isEqualTo(2);
        assertThat(group(r, "new").phase()).isEqualTo("Running");
    }

    @Test
    void withoutReclaimInTheConfNothingIsEvicted() {
        StringBuilder y = new StringBuilder(
                nodes(2, "2") + queue("lender", 1, "") + queue("owner", 1, "") + runningGroup("old", "lender", 1, ""));
        for (int i = 0; i < 4; i++) y.append(pod("old", i, "n" + (i / 2), "1", "", ""));
        y.append(job("new", "owner", 2, 2, "1", T1, "", ""));
        PlanReport r = plan(y.toString());
        assertThat(r.evictions()).isEmpty();
        assertThat(boundOf(r, "new")).isZero();
    }

    @Test
    void preemptionByPriorityEvictsLowerPriorityPodsOfTheSameQueue() {
        StringBuilder y = new StringBuilder(nodes(1, "2")
                + priorityClass("low", 10)
                + priorityClass("high", 1000)
                + runningGroup("low-job", "default", 1, "low"));
        for (int i = 0; i < 2; i++) y.append(pod("low-job", i, "n0", "1", "low", ""));
        // As in Volcano, preempt serves only pod groups past enqueue; a full cluster keeps a new one Pending.
        y.append(job("urgent", "default", 1, 1, "1", T1, "priorityClassName: high", ""))
                .append(inqueue("urgent", "default", 1));
        PlanReport r = plan(y.toString(), SchedulerConf.parse(PlanScenarios.PREEMPT_CONF), null);
        assertThat(r.evictions()).hasSize(1);
        assertThat(r.evictions().get(0).action()).isEqualTo("preempt");
        assertThat(r.evictions().get(0).pod()).startsWith("low-job-w-");
        assertThat(boundOf(r, "urgent")).isEqualTo(1);
    }

    @Test
    void aPodMarkedNotPreemptableIsNeverPreempted() {
        StringBuilder y = new StringBuilder(nodes(1, "2")
                + priorityClass("low", 10)
                + priorityClass("high", 1000)
                + runningGroup("low-job", "default", 1, "low"));
        for (int i = 0; i < 2; i++)
            y.append(pod("low-job", i, "n0", "1", "low", "annotations: {volcano.sh/preemptable: \"false\"}"));
        y.append(job("urgent", "default", 1, 1, "1", T1, "priorityClassName: high", ""))
                .append(inqueue("urgent", "default", 1));
        PlanReport r = plan(y.toString(), SchedulerConf.parse(PlanScenarios.PREEMPT_CONF), null);
        assertThat(r.evictions()).isEmpty();
        assertThat(boundOf(r, "urgent")).isZero();
    }

    @Test
    void aJobWhoseClassNeverPreemptsWaitsInsteadOfPreempting() {
        StringBuilder y = new StringBuilder(nodes(1, "2")
                + priorityClass("low", 10)
                + priorityClass("high", 1000).replace("value: 1000\n", "value: 1000\npreemptionPolicy: Never\n")
                + runningGroup("low-job", "default", 1, "low"));
        for (int i = 0; i < 2; i++) y.append(pod("low-job", i, "n0", "1", "low", ""));
        y.append(job("urgent", "default", 1, 1, "1", T1, "priorityClassName: high", ""))
                .append(inqueue("urgent", "default", 1));
        PlanReport r = plan(y.toString(), SchedulerConf.parse(PlanScenarios.PREEMPT_CONF), null);
        assertThat(r.evictions()).isEmpty();
        assertThat(boundOf(r, "urgent")).isZero();
    }

    /** Volcano's compiled-in default (no binpack): nodeorder's least-allocated puts each pod on the emptiest node. */
    @Test
    void volcanosDefaultConfigurationSpreadsAGangOverEmptyNodes() {
        String yaml = nodes(3, "8") + job("j", "default", 3, 3, "1", T0, "", "");
        PlanReport r = plan(yaml);
        assertThat(r.bindings()).hasSize(3);
        assertThat(r.bindings().stream().map(PlanReport.Binding::node).distinct())
                .hasSize(3);
    }

    @Test
    void binpackFillsOneNodeBeforeTheNext() {
        // Volcano's default configuration has no binpack (nodeorder's least-allocated spreads); binpack weighted up
        // packs.
        String yaml = nodes(3, "8") + job("j", "default", 3, 3, "1", T0, "", "");
        String conf = SchedulerConf.DEFAULT_YAML.replace(
                "  - name: nodeorder\n",
                "  - name: nodeorder\n  - name: binpack\n    arguments: {binpack.weight: 10}\n");
        assertThat(conf).contains("binpack");
        PlanReport r = plan(yaml, SchedulerConf.parse(conf), null);
        assertThat(r.bindings()).hasSize(3);
        assertThat(r.bindings().stream().map(PlanReport.Binding::node).distinct())
                .hasSize(1);
    }

    @Test
    void taintsAndSelectorsDecideWhereAPodMayGo() {
        String yaml = node(
                        "gpu",
                        "8",
                        "  labels: {accel: gpu}\nspec:\n  taints: [{key: dedicated, value: gpu, effect: NoSchedule}]")
                + node("plain", "8", "  labels: {accel: none}")
                + node("other", "8", "  labels: {accel: gpu2}")
                + job(
                        "tolerant",
                        "default",
                        2,
                        2,
                        "1",
                        T0,
                        "",
                        "nodeSelector: {accel: gpu}\ntolerations: [{key: dedicated, operator: Equal, value: gpu, effect: NoSchedule}]")
                + job("picky", "default", 1, 1, "1", T0, "", "nodeSelector: {accel: gpu}");
        PlanReport r = plan(yaml);
        assertThat(r.bindings())
                .filteredOn(b -> b.pod().startsWith("tolerant-"))
                .extracting(PlanReport.Binding::node)
                .containsOnly("gpu")
                .hasSize(2);
        assertThat(boundOf(r, "picky")).isZero();
        assertThat(group(r, "picky").reason()).isIn("NotEnoughResources", "NotEnoughTasks");
        assertThat(group(r, "picky").message()).isNotBlank();
    }

    @Test
    void aJobSubmittedToAClosedQueueIsRejectedAndTheRestIsPlanned() {
        String yaml = nodes(1, "4")
                + queue("shut", 1, "status: {state: Closed}")
                + job("blocked", "shut", 1, 1, "1", T0, "", "")
                + job("fine", "default", 1, 1, "1", T0, "", "");
        PlanReport r = plan(yaml);
        assertThat(group(r, "blocked").phase()).isEqualTo("Rejected");
        assertThat(group(r, "blocked").errors()).anyMatch(e -> e.contains("spec.queue"));
        assertThat(boundOf(r, "fine")).isEqualTo(1);
    }

    @Test
    void anInvalidJobIsListedWithEveryAdmissionError() {
        String bad = """
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata: {name: broken}
                spec:
                  minAvailable: 5
                  tasks:
                  - name: w
                    replicas: 1
                    template: {spec: {containers: [{name: c, image: x}]}}
                  - name: w
                    replicas: 1
                    template: {spec: {containers: [{name: c, image: x}]}}
                ---
                """;
        PlanReport r = plan(nodes(1, "4") + bad + job("ok", "default", 1, 1, "1", T0, "", ""));
        PlanReport.PodGroupStatus g = group(r, "broken");
        assertThat(g.phase()).isEqualTo("Rejected");
        assertThat(g.reason()).isEqualTo("AdmissionRejected");
        assertThat(g.errors()).hasSizeGreaterThanOrEqualTo(2);
        assertThat(String.join("\n", g.errors())).contains("minAvailable").contains("spec.tasks[1].name");
        assertThat(boundOf(r, "ok")).isEqualTo(1);
    }

    @Test
    void aNewJobIsEnqueuedInTheFirstSessionAndPlacedInTheSecond() {
        String yaml = nodes(1, "4") + job("j", "default", 2, 2, "1", T0, "", "");
        PlanReport one = plan(yaml, SchedulerConf.defaults(), 1);
        assertThat(one.sessions()).isEqualTo(1);
        assertThat(one.bindings()).isEmpty();
        assertThat(group(one, "j").phase()).isEqualTo("Inqueue");
        PlanReport two = plan(yaml, SchedulerConf.defaults(), 2);
        assertThat(two.bindings()).hasSize(2);
        assertThat(group(two, "j").phase()).isEqualTo("Running");
    }

    @Test
    void equalPriorityJobsGoInCreationOrderWhateverTheDocumentOrder() {
        String later = job("later", "default", 2, 2, "1", T1, "", "");
        String earlier = job("earlier", "default", 2, 2, "1", T0, "", "");
        PlanReport r1 = plan(nodes(1, "2") + later + earlier);
        PlanReport r2 = plan(nodes(1, "2") + earlier + later);
        assertThat(boundOf(r1, "earlier")).isEqualTo(2);
        assertThat(r1.toYaml()).isEqualTo(r2.toYaml());
    }

    @Test
    void boundPodsOfOtherSchedulersTakeTheirNodesResources() {
        String foreign = """
                apiVersion: v1
                kind: Pod
                metadata: {name: daemon, namespace: kube-system}
                spec:
                  nodeName: n0
                  containers: [{name: c, image: x, resources: {requests: {cpu: "3"}}}]
                status: {phase: Running}
                ---
                """;
        PlanReport r = plan(nodes(2, "4") + foreign + job("j", "default", 2, 2, "1", T0, "", ""));
        assertThat(r.bindings()).extracting(PlanReport.Binding::node).containsOnly("n1");
    }

    @Test
    void theOutputIsYamlWithTheFourSections() {
        PlanReport r = plan(nodes(1, "4") + job("j", "default", 1, 1, "1", T0, "", ""));
        String y = r.toYaml();
        assertThat(y).contains("bindings:", "podGroups:", "queues:", "evictions:");
        assertThat(y).contains("pod: j-w-0", "node: n0", "action: allocate");
    }

    @Test
    void withSessionsNExactlyNSessionsRunEvenWhenNothingChanges() {
        String yaml = nodes(1, "4") + job("j", "default", 2, 2, "1", T0, "", "");
        PlanReport five = plan(yaml, SchedulerConf.defaults(), 5);
        assertThat(five.sessions()).isEqualTo(5);
        assertThat(five.converged()).isTrue();
        PlanReport free = plan(yaml);
        assertThat(free.sessions()).isEqualTo(3); // enqueue, allocate, then a session that changes nothing
        assertThat(five.bindings()).isEqualTo(free.bindings());
    }

    @Test
    void aRunningJobKeepsItsBoundPodsAndItsMissingReplicaIsPlaced() {
        // Job j (3 replicas) runs 2 pods on n0; its third pod was lost and is created again, pending.
        String yaml = nodes(2, "2")
                + job("j", "default", 3, 2, "1", T0, "", "")
                + runningGroup("j", "default", 2, "")
                + pod("j", 0, "n0", "1", "", "")
                + pod("j", 1, "n0", "1", "", "");
        PlanReport r = plan(yaml);
        assertThat(r.bindings()).containsExactly(new PlanReport.Binding("default", "j-w-2", "n1", "allocate"));
        assertThat(group(r, "j").phase()).isEqualTo("Running");
        PlanReport.QueueStatus q = r.queues().stream()
                .filter(x -> x.name().equals("default"))
                .findFirst()
                .orElseThrow();
        assertThat(q.allocated().milliCpu()).isEqualTo(3000);
    }

    @Test
    void theSchedulersCompactSnapshotFormatMixesWithManifests() {
        String compact = """
                nodes:
                - {name: c1, allocatable: {cpu: 4, memory: 16Gi}}
                queues:
                - {name: research, weight: 2}
                podGroups:
                - name: old
                  queue: research
                  minMember: 1
                  phase: Running
                  tasks:
                  - {name: old-0, resources: {cpu: 3}, status: Running, node: c1}
                ---
                """;
        PlanReport r = plan(compact + job("j", "research", 2, 2, "1", T0, "", ""));
        assertThat(boundOf(r, "j")).isZero(); // 1 cpu left on c1, the gang needs 2
        assertThat(group(r, "old").phase()).isEqualTo("Running");
        PlanReport more = plan(compact + nodes(1, "2") + job("j", "research", 2, 2, "1", T0, "", ""));
        assertThat(boundOf(more, "j")).isEqualTo(2); // with n0 beside c1 it fits
    }

    @Test
    void aBadCompactDocumentIsAProblemWithItsPath() {
        PlanInput in = PlanInput.read(
                java.util.List.of(new PlanInput.Source("s.yaml", "nodes:\n- {name: c1, allocatable: {cpu: lots}}\n")));
        assertThat(in.problems())
                .extracting(io.lahar.core.scheduling.api.Problem::path)
                .containsExactly("s.yaml[0].nodes[0].allocatable");
    }

    @Test
    void aJobAlreadyRunningInAQueueClosedSinceIsKeptNotRejected() {
        String yaml = nodes(1, "4")
                + queue("shut", 1, "status: {state: Closed}")
                + job("old", "shut", 2, 2, "1", T0, "", "")
                + runningGroup("old", "shut", 2, "")
                + pod("old", 0, "n0", "1", "", "")
                + pod("old", 1, "n0", "1", "", "")
                + job("new", "shut", 1, 1, "1", T1, "", "");
        PlanReport r = plan(yaml);
        assertThat(group(r, "old").phase()).isEqualTo("Running");
        assertThat(group(r, "new").phase()).isEqualTo("Rejected");
        assertThat(r.bindings()).isEmpty();
    }

    static final String TDM_CONF =
            io.lahar.core.scheduling.plugins.TdmSessionTest.conf("{tdm.revocable-zone.rz1: \"0:00-12:00\"}");

    static PlanReport planAt(String yaml, String now) {
        PlanInput in = PlanInput.read(java.util.List.of(new PlanInput.Source("snapshot.yaml", yaml)));
        java.util.List<io.lahar.core.scheduling.api.Problem> problems = new java.util.ArrayList<>(in.problems());
        PlanWorld world = PlanWorld.build(in, java.time.Instant.parse(now), problems);
        assertThat(problems).isEmpty();
        return new Planner(SchedulerConf.parse(TDM_CONF)).plan(world, null);
    }

    @Test
    void aJobsRevocableZoneTakesItToTheLentNodeWhileTheWindowIsOpenAndItsPodsLeaveWhenItCloses() {
        String lent = node("lent", "4", "  labels: {volcano.sh/revocable-zone: rz1}");
        String batch = job("batch", "default", 4, 4, "1", T0, "", "")
                .replace("  name: batch\n", "  name: batch\n  annotations: {volcano.sh/revocable-zone: \"*\"}\n");
        String plain = job("plain", "default", 2, 2, "1", T0, "", "");
        PlanReport open = planAt(lent + node("own", "4", "") + batch + plain, "2026-01-01T11:00:00Z");
        assertThat(open.bindings())
                .filteredOn(b -> b.pod().startsWith("batch-"))
                .extracting(PlanReport.Binding::node)
                .containsOnly("lent")
                .hasSize(4);
        assertThat(open.bindings())
                .filteredOn(b -> b.pod().startsWith("plain-"))
                .extracting(PlanReport.Binding::node)
                .containsOnly("own");

        // The window has closed: half of the running group's pods there leave (jdb-max-unavailable 50%).
        StringBuilder y = new StringBuilder(lent + node("own", "4", ""));
        y.append(runningGroup("old", "default", 1, "")
                .replace("  name: old\n", "  name: old\n  annotations: {volcano.sh/jdb-max-unavailable: 50%}\n"));
        for (int i = 0; i < 4; i++) y.append(pod("old", i, "lent", "1", "", "")); // preemptable: no annotation says no
        PlanReport closed = planAt(y.toString(), "2026-01-01T13:00:00Z");
        assertThat(closed.evictions()).hasSize(2).allSatisfy(e -> {
            assertThat(e.action()).isEqualTo("shuffle");
            assertThat(e.node()).isEqualTo("lent");
        });
    }
}
