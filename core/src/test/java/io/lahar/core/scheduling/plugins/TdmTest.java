package io.lahar.core.scheduling.plugins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lahar.core.api.PodGroupPhase;
import io.lahar.core.job.plugins.PodLabels;
import io.lahar.core.scheduling.api.DisruptionBudget;
import io.lahar.core.scheduling.api.JobInfo;
import io.lahar.core.scheduling.api.NodeInfo;
import io.lahar.core.scheduling.api.Problem;
import io.lahar.core.scheduling.api.Snapshot;
import io.lahar.core.scheduling.api.TaskInfo;
import io.lahar.core.scheduling.api.TaskStatus;
import io.lahar.core.scheduling.framework.Arguments;
import io.lahar.core.scheduling.framework.InvalidConfException;
import io.lahar.core.scheduling.framework.PluginRegistry;
import io.lahar.core.scheduling.framework.SchedulerConf;
import io.lahar.core.scheduling.framework.Session;
import io.lahar.core.scheduling.framework.SessionNode;
import io.lahar.core.scheduling.framework.SessionTask;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The tdm plugin after Volcano's pkg/scheduler/plugins/tdm/tdm_test.go, one case per row of its
 * tables ({@code Test_parseRevocableZone}, {@code Test_TDM}, {@code Test_TDM_victimsFn}); Volcano's
 * tests run at the wall clock, these at noon UTC, where its windows {@code 0:00-0:00} (the whole
 * day) are open and {@code 0:00-0:01} closed, as they are in Volcano but in the first minute of a day.
 */
class TdmTest {

    static final Instant NOON = Instant.parse("2026-01-01T12:00:00Z");

    // ---------------------------------------------------------------- Test_parseRevocableZone

    record ZoneCase(String rz, long delta, boolean err) {}

    static Stream<ZoneCase> parseRevocableZone() {
        return Stream.of(
                new ZoneCase("00:00_01:00", 0, true),
                new ZoneCase("00:00-01:00", 60 * 60, false),
                new ZoneCase("0:00-23:59", 23 * 60 * 60 + 59 * 60, false),
                new ZoneCase("0:00", 0, true),
                new ZoneCase("1:00-0:00", 23 * 60 * 60, false),
                new ZoneCase("1:0-0:0", 0, true),
                new ZoneCase("   1:00-0:00    ", 23 * 60 * 60, false),
                new ZoneCase("23:59-23:59", 24 * 60 * 60, false),
                new ZoneCase("63:59-23:59", 0, true));
    }

    @ParameterizedTest
    @MethodSource
    void parseRevocableZone(ZoneCase c) {
        if (c.err()) {
            assertThatThrownBy(() -> Tdm.Window.parse("tdm.revocable-zone.rz", c.rz()))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("tdm.revocable-zone.rz: expected a daily window");
            return;
        }
        Tdm.Window w = Tdm.Window.parse("tdm.revocable-zone.rz", c.rz());
        assertThat(Duration.between(w.start(NOON), w.end(NOON)).toSeconds()).isEqualTo(c.delta());
    }

    // ---------------------------------------------------------------- Test_TDM

    static final Map<String, String> RZ_ANY = Map.of(PodLabels.REVOCABLE_ZONE, "*");

    static TaskInfo pod(String name, Map<String, String> annotations) {
        return TaskInfo.builder(name)
                .resreq(Map.of("cpu", "1", "memory", "1Gi"))
                .revocableZone(TaskInfo.revocableZoneOf(annotations))
                .preemptable(!"false".equals(annotations.get(PodLabels.PREEMPTABLE)))
                .build();
    }

    static NodeInfo node(String name, String zone) {
        NodeInfo.Builder b = NodeInfo.builder(name).allocatable(Map.of("cpu", "16", "memory", "64Gi", "pods", "10"));
        if (zone != null) b.label(PodLabels.REVOCABLE_ZONE, zone);
        return b.build();
    }

    static final List<NodeInfo> FIVE_NODES =
            List.of(node("n1", "rz1"), node("n2", "rz1"), node("n3", null), node("n4", null), node("n5", "rz2"));

    record TdmCase(String name, TaskInfo pod, Map<String, Double> expected) {}

    static Stream<TdmCase> tdm() {
        return Stream.of(
                new TdmCase(
                        "preemptable task rz available",
                        pod("p1", RZ_ANY),
                        Map.of("n1", 100.0, "n2", 100.0, "n3", 0.0, "n4", 0.0)),
                new TdmCase("not preemptable task", pod("p2", Map.of()), Map.of("n3", 0.0, "n4", 0.0)),
                new TdmCase(
                        "preemptable task and multiple rz",
                        pod("p3", RZ_ANY),
                        Map.of("n1", 100.0, "n2", 100.0, "n3", 0.0, "n4", 0.0)));
    }

    static Session open(String arguments, List<NodeInfo> nodes, List<JobInfo> jobs, Instant now) {
        return open(arguments, nodes, jobs, now, PluginRegistry.defaults());
    }

    static Session open(String arguments, List<NodeInfo> nodes, List<JobInfo> jobs, Instant now, PluginRegistry r) {
        SchedulerConf conf = SchedulerConf.parse("""
                actions: "allocate"
                tiers:
                - plugins:
                  - name: tdm
                    arguments: {%s}
                """.formatted(arguments), r);
        return Session.open(conf, new Snapshot(nodes, List.of(), jobs).at(now), r);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void tdm(TdmCase c) {
        JobInfo pg1 = JobInfo.builder("pg1")
                .namespace("c1")
                .queue("c1")
                .task(c.pod())
                .minMember(0)
                .build();
        Session ssn = open(
                "tdm.revocable-zone.rz1: \"0:00-0:00\", tdm.revocable-zone.rz2: \"0:00-0:01\"",
                FIVE_NODES,
                List.of(pg1),
                NOON);
        SessionTask task = ssn.job("c1/pg1").tasks().getFirst();
        Map<String, Double> scores = new LinkedHashMap<>();
        for (SessionNode n : ssn.nodes()) {
            if (ssn.predicate(task, n) == null) scores.put(n.name(), ssn.nodeScore(task, n));
        }
        assertThat(scores).isEqualTo(c.expected());
    }

    @Test
    void theReasonsARevocableNodeRefusesATask() {
        JobInfo pg1 = JobInfo.builder("pg1")
                .task(pod("p1", RZ_ANY))
                .task(pod("p2", Map.of()))
                .build();
        Session ssn = open("tdm.revocable-zone.rz2: \"0:00-0:01\"", FIVE_NODES, List.of(pg1), NOON);
        SessionTask revocable = ssn.job("default/pg1").tasks().get(0);
        assertThat(ssn.predicate(revocable, ssn.node("n1")))
                .isEqualTo("revocable zone rz1 is not configured in the tdm plugin");
        assertThat(ssn.predicate(revocable, ssn.node("n5")))
                .isEqualTo("current time beyond revocable zone rz2:0:00-0:01 (UTC)");
        assertThat(ssn.predicate(revocable, ssn.node("n3"))).isNull();

        ssn = open("tdm.revocable-zone.rz1: \"11:00-13:00\"", FIVE_NODES, List.of(pg1), NOON);
        SessionTask other = ssn.job("default/pg1").tasks().get(1);
        assertThat(ssn.predicate(other, ssn.node("n1"))).isEqualTo("not allow to dispatch to revocable node");
        // Without the session's time no window is known to be open.
        ssn = open("tdm.revocable-zone.rz1: \"0:00-0:00\"", FIVE_NODES, List.of(pg1), null);
        revocable = ssn.job("default/pg1").tasks().get(0);
        assertThat(ssn.predicate(revocable, ssn.node("n1")))
                .isEqualTo("the session's time is not known, so revocable zone rz1 is not open");
        assertThat(ssn.nodeScore(revocable, ssn.node("n1"))).isZero();
    }

    @Test
    void aWindowIsOpenFromItsStartToItsEndToTheSecondOnTheSessionsDayInUtc() {
        Tdm.Window w = Tdm.Window.parse("k", "10:00-21:00");
        assertThat(w.isOpen(Instant.parse("2026-01-01T09:59:59Z"))).isFalse();
        assertThat(w.isOpen(Instant.parse("2026-01-01T10:00:00Z"))).isTrue();
        assertThat(w.isOpen(Instant.parse("2026-01-01T21:00:00.900Z"))).isTrue();
        assertThat(w.isOpen(Instant.parse("2026-01-01T21:00:01Z"))).isFalse();
        // As Volcano reads it, a window past midnight starts on the session's day: open from 22:00
        // to the end of the day, not in the early hours before its end.
        Tdm.Window night = Tdm.Window.parse("k", "22:00-06:00");
        assertThat(night.isOpen(Instant.parse("2026-01-01T23:30:00Z"))).isTrue();
        assertThat(night.isOpen(Instant.parse("2026-01-02T03:00:00Z"))).isFalse();
    }

    // ---------------------------------------------------------------- Test_TDM_victimsFn

    /** Five running pods on one node: the first three preemptable, the last two not (c1/pg1 p1..p5). */
    static List<TaskInfo> c1Pods() {
        List<TaskInfo> out = new ArrayList<>();
        for (int i = 1; i <= 5; i++) {
            String preemptable = i <= 3 ? "true" : "false";
            out.add(running("p" + i, "n1", preemptable));
        }
        return out;
    }

    /** Five running preemptable pods on n2 (c2/pg2 p6..p10). */
    static List<TaskInfo> c2Pods() {
        List<TaskInfo> out = new ArrayList<>();
        for (int i = 6; i <= 10; i++) out.add(running("p" + i, "n2", "true"));
        return out;
    }

    static TaskInfo running(String name, String node, String preemptable) {
        Map<String, String> annotations = Map.of(PodLabels.PREEMPTABLE, preemptable);
        return TaskInfo.builder(name)
                .resreq(Map.of("cpu", "1", "memory", "1Gi"))
                .revocableZone(TaskInfo.revocableZoneOf(annotations))
                .preemptable(preemptable.equals("true"))
                .on(node, TaskStatus.Running)
                .build();
    }

    static JobInfo group(String ns, String name, String budgetKey, String budget, List<TaskInfo> pods) {
        JobInfo.Builder b = JobInfo.builder(name)
                .namespace(ns)
                .queue(ns)
                .minMember(0)
                .phase(PodGroupPhase.Running)
                .budget(DisruptionBudget.of(Map.of(budgetKey, budget)));
        pods.forEach(b::task);
        return b.build();
    }

    static final String MAX = PodLabels.JDB_MAX_UNAVAILABLE;
    static final String MIN = PodLabels.JDB_MIN_AVAILABLE;

    record VictimsCase(String name, List<JobInfo> groups, List<NodeInfo> nodes, String rz1, String period, int want) {}

    static Stream<VictimsCase> victims() {
        List<NodeInfo> n1 = List.of(node("n1", "rz1"));
        List<NodeInfo> n2 = List.of(node("n2", "rz1"));
        List<NodeInfo> both = List.of(node("n1", "rz1"), node("n2", "rz1"));
        return Stream.of(
                new VictimsCase(
                        "case 0", List.of(group("c1", "pg1", MAX, "30%", c1Pods())), n1, "0:00-0:01", "100ms", 2),
                new VictimsCase(
                        "case 1", List.of(group("c1", "pg1", MAX, "30%", c1Pods())), n1, "0:00-0:00", "100ms", 0),
                new VictimsCase("case 2", List.of(group("c1", "pg1", MAX, "99%", c1Pods())), n1, "0:00-0:01", "1s", 3),
                new VictimsCase("case 3", List.of(group("c2", "pg2", MAX, "50%", c2Pods())), n2, "0:00-0:01", "1s", 3),
                new VictimsCase(
                        "case 4",
                        List.of(group("c2", "pg2", MAX, "50%", c2Pods()), group("c1", "pg1", MAX, "90%", c1Pods())),
                        both,
                        "0:00-0:01",
                        "1s",
                        6),
                new VictimsCase("case 5", List.of(group("c2", "pg2", MAX, "3", c2Pods())), n2, "0:00-0:01", "1s", 3),
                new VictimsCase("case 6", List.of(group("c2", "pg2", MIN, "3", c2Pods())), n2, "0:00-0:01", "1s", 2),
                new VictimsCase("case 7", List.of(group("c2", "pg2", MIN, "30%", c2Pods())), n2, "0:00-0:01", "1s", 3),
                new VictimsCase(
                        "case 8",
                        List.of(group("c2", "pg2", MIN, "2", c2Pods()), group("c1", "pg1", MAX, "3", c1Pods())),
                        both,
                        "0:00-0:01",
                        "1s",
                        6));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void victims(VictimsCase c) {
        Session ssn = open(
                "tdm.revocable-zone.rz1: \"%s\", tdm.evict.period: %s".formatted(c.rz1(), c.period()),
                c.nodes(),
                c.groups(),
                NOON);
        assertThat(ssn.victimTasks(List.of())).hasSize(c.want()).allSatisfy(t -> {
            assertThat(t.info().preemptable()).isTrue();
            assertThat(t.status()).isEqualTo(TaskStatus.Running);
        });
    }

    @Test
    void victimsAreLookedForAtMostOncePerEvictPeriodAcrossTheSessionsOfOneRegistry() {
        PluginRegistry r = PluginRegistry.defaults();
        String args = "tdm.revocable-zone.rz1: \"0:00-0:01\", tdm.evict.period: 1m";
        List<JobInfo> groups = List.of(group("c1", "pg1", MAX, "30%", c1Pods()));
        List<NodeInfo> n1 = List.of(node("n1", "rz1"));
        assertThat(open(args, n1, groups, NOON, r).victimTasks(List.of())).hasSize(2);
        assertThat(open(args, n1, groups, NOON.plusSeconds(59), r).victimTasks(List.of()))
                .isEmpty();
        assertThat(open(args, n1, groups, NOON.plusSeconds(60), r).victimTasks(List.of()))
                .hasSize(2);
        // Another registry (another scheduler) has its own clock of evictions.
        assertThat(open(args, n1, groups, NOON.plusSeconds(61), PluginRegistry.defaults())
                        .victimTasks(List.of()))
                .hasSize(2);
        // Without the session's time nothing is evicted.
        assertThat(open(args, n1, groups, null).victimTasks(List.of())).isEmpty();
    }

    @Test
    void theBudgetCountsPodsAlreadyUnavailableAndMinAvailableBelowRunningLeavesOne() {
        List<TaskInfo> pods = new ArrayList<>(c2Pods());
        pods.set(0, pods.get(0).with(TaskStatus.Pending, null)); // p6 waits for a node again
        pods.set(1, pods.get(1).with(TaskStatus.Succeeded, "n2")); // p7 is done: not unavailable
        String args = "tdm.revocable-zone.rz1: \"0:00-0:01\"";
        List<NodeInfo> n2 = List.of(node("n2", "rz1"));
        // max-unavailable 2: one is unavailable already, so one more.
        assertThat(open(args, n2, List.of(group("c2", "pg2", MAX, "2", pods)), NOON)
                        .victimTasks(List.of()))
                .extracting(SessionTask::name)
                .containsExactly("p8");
        // min-available 4 with three running: Volcano's default of one.
        assertThat(open(args, n2, List.of(group("c2", "pg2", MIN, "4", pods)), NOON)
                        .victimTasks(List.of()))
                .extracting(SessionTask::name)
                .containsExactly("p8");
        // No budget: one per job.
        JobInfo none = JobInfo.builder("pg2")
                .namespace("c2")
                .phase(PodGroupPhase.Running)
                .minMember(0)
                .task(pods.get(2))
                .task(pods.get(3))
                .build();
        assertThat(open(args, n2, List.of(none), NOON).victimTasks(List.of())).hasSize(1);
    }

    // ---------------------------------------------------------------- preemptable, job order, pipelined, starving

    @Test
    void aPreemptorTakesOnlyRunningPreemptableTasksOnNodesOfNoZoneWithinTheirBudget() {
        List<TaskInfo> victims = new ArrayList<>();
        for (int i = 0; i < 4; i++) victims.add(running("v" + i, "plain", "true"));
        victims.add(running("keep", "plain", "false"));
        victims.add(running("lent", "rev", "true"));
        victims.add(TaskInfo.builder("bound")
                .resreq(Map.of("cpu", "1"))
                .on("plain", TaskStatus.Bound)
                .build());
        JobInfo low = group("ns", "low", MAX, "50%", victims);
        JobInfo high = JobInfo.builder("high")
                .namespace("ns")
                .task(TaskInfo.builder("h").preemptable(false).build())
                .task(pod("h-revocable", RZ_ANY))
                .task(TaskInfo.builder("h-preemptable").build())
                .build();
        Session ssn = open(
                "tdm.revocable-zone.rz1: \"0:00-0:00\"",
                List.of(node("plain", null), node("rev", "rz1")),
                List.of(low, high),
                NOON);
        List<SessionTask> preemptees = ssn.job("ns/low").tasks();
        List<SessionTask> preemptors = ssn.job("ns/high").tasks();
        // 50% of 7 rounds up to 4; the bound one is not running, so unavailable: three more.
        assertThat(ssn.preemptable(preemptors.get(0), preemptees))
                .extracting(SessionTask::name)
                .containsExactly("v0", "v1", "v2");
        assertThat(ssn.preemptable(preemptors.get(1), preemptees)).isEmpty();
        assertThat(ssn.preemptable(preemptors.get(2), preemptees)).isEmpty();
    }

    @Test
    void jobsThatAreNotPreemptableGoFirstAndStarveWhileTasksPend() {
        JobInfo preemptable = JobInfo.builder("a")
                .creationIndex(1)
                .preemptable(true)
                .tasks("w", 1, Map.of("cpu", "1"))
                .build();
        JobInfo not = JobInfo.builder("b")
                .creationIndex(2)
                .tasks("w", 1, Map.of("cpu", "1"))
                .build();
        JobInfo placed = JobInfo.builder("c")
                .creationIndex(3)
                .task(TaskInfo.builder("c-0").on("n3", TaskStatus.Running).build())
                .build();
        Session ssn = open("", List.of(node("n3", null)), List.of(preemptable, not, placed), NOON);
        assertThat(ssn.compareJobs(ssn.job("default/b"), ssn.job("default/a"))).isNegative();
        assertThat(ssn.compareJobs(ssn.job("default/a"), ssn.job("default/b"))).isPositive();
        assertThat(ssn.jobStarving(ssn.job("default/a"))).isFalse();
        assertThat(ssn.jobStarving(ssn.job("default/b"))).isTrue();
        assertThat(ssn.jobStarving(ssn.job("default/c"))).isFalse();
    }

    @Test
    void aJobIsPipelinedWhenReadyPipelinedAndPendingBestEffortTasksReachMinMember() {
        JobInfo bestEffort = JobInfo.builder("be")
                .task(TaskInfo.builder("be-0").build())
                .task(TaskInfo.builder("be-1").on("n3", TaskStatus.Running).build())
                .minMember(2)
                .build();
        JobInfo waiting = JobInfo.builder("w")
                .tasks("w", 2, Map.of("cpu", "1"))
                .minMember(1)
                .build();
        Session ssn = open("", List.of(node("n3", null)), List.of(bestEffort, waiting), NOON);
        assertThat(ssn.jobPipelined(ssn.job("default/be"))).isTrue();
        assertThat(ssn.jobPipelined(ssn.job("default/w"))).isFalse();
    }

    // ---------------------------------------------------------------- arguments

    @Test
    void badArgumentsAreConfProblemsWithTheirPaths() {
        assertThatThrownBy(() -> open("tdm.revocable-zone.rz1: \"10:00\"", List.of(), List.of(), NOON))
                .isInstanceOfSatisfying(
                        InvalidConfException.class,
                        e -> assertThat(e.problems())
                                .extracting(Problem::toString)
                                .containsExactly(
                                        "tiers[0].plugins[0].arguments: argument tdm.revocable-zone.rz1: expected a"
                                                + " daily window \"HH:MM-HH:MM\" in UTC (e.g. 10:00-21:00), got \"10:00\""));
        assertThatThrownBy(() -> new Tdm(Arguments.of("tdm.revocable-zone.", "1:00-2:00")))
                .hasMessage("argument tdm.revocable-zone.: names no zone (tdm.revocable-zone.<zone>, the zone a"
                        + " node's volcano.sh/revocable-zone label names)");
        assertThatThrownBy(() -> new Tdm(Arguments.of("tdm.revocable-zone.rz1", "10:00")))
                .hasMessage("argument tdm.revocable-zone.rz1: expected a daily window \"HH:MM-HH:MM\" in UTC"
                        + " (e.g. 10:00-21:00), got \"10:00\"");
        assertThatThrownBy(() -> new Tdm(Arguments.of("tdm.evict.period", "soon")))
                .hasMessage("argument tdm.evict.period: not a duration (e.g. 1m30s), got \"soon\"");
        assertThatThrownBy(() -> new Tdm(Arguments.of("tdm.evict.period", "-1m")))
                .hasMessage("argument tdm.evict.period: must not be negative, got \"-1m\"");
        assertThatThrownBy(() -> open("tdm.evict-period: 1m", List.of(), List.of(), NOON))
                .isInstanceOfSatisfying(
                        InvalidConfException.class,
                        e -> assertThat(e.problems())
                                .extracting(Problem::path)
                                .containsExactly("tiers[0].plugins[0].arguments.tdm.evict-period"));
    }
}
