package io.lahar.core.scheduling.actions;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.api.PodGroupPhase;
import io.lahar.core.scheduling.VolcanoTables;
import io.lahar.core.scheduling.api.JobInfo;
import io.lahar.core.scheduling.api.LabelSelector;
import io.lahar.core.scheduling.api.NodeInfo;
import io.lahar.core.scheduling.api.PodSpec;
import io.lahar.core.scheduling.api.QueueInfo;
import io.lahar.core.scheduling.api.Snapshot;
import io.lahar.core.scheduling.api.TaskInfo;
import io.lahar.core.scheduling.api.TopologySpreadConstraint;
import io.lahar.core.scheduling.framework.Extension;
import io.lahar.core.scheduling.framework.Scheduler;
import io.lahar.core.scheduling.framework.SchedulerConf;
import io.lahar.core.scheduling.framework.SessionResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Allocate after Volcano's {@code TestAllocate} and {@code TestParseArgs}
 * (pkg/scheduler/actions/allocate/allocate_test.go): NeedContinueAllocating, the failed role
 * skipped, a queue that cannot take a task passing to the next; and its predicate error cache.
 */
class AllocateVolcanoTest {

    /** Volcano's test tiers: only the named switches on (its uthelper leaves the others off). */
    static final Map<String, Set<Extension>> TIERS = new LinkedHashMap<>();

    static {
        TIERS.put(
                "gang",
                Set.of(Extension.JOB_ORDER, Extension.JOB_READY, Extension.JOB_PIPELINED, Extension.JOB_STARVING));
        TIERS.put("drf", Set.of(Extension.PREEMPTABLE, Extension.JOB_ORDER));
        TIERS.put("proportion", Set.of(Extension.QUEUE_ORDER, Extension.RECLAIMABLE, Extension.ALLOCATABLE));
        TIERS.put("predicates", Set.of(Extension.PREDICATE));
        TIERS.put("nodeorder", Set.of(Extension.NODE_ORDER));
    }

    static SchedulerConf conf(String configurations) {
        return VolcanoTables.conf("allocate", TIERS, configurations);
    }

    record Case(
            String name,
            List<NodeInfo> nodes,
            List<QueueInfo> queues,
            List<JobInfo> jobs,
            Map<String, String> expectBind) {
        @Override
        public String toString() {
            return name;
        }
    }

    static NodeInfo node(String name, String cpu, String mem, String... labels) {
        return VolcanoTables.node(name, cpu, mem, labels);
    }

    static TaskInfo pod(String name, String role, String cpu, String nodeRole) {
        TaskInfo.Builder b = TaskInfo.builder(name).role(role).resreq(Map.of("cpu", cpu, "memory", "1G"));
        if (nodeRole != null) b.nodeSelector("nodeRole", nodeRole);
        return b.build();
    }

    static JobInfo pg(
            String name, String ns, String queue, int minMember, Map<String, Integer> minTaskMember, TaskInfo... pods) {
        JobInfo.Builder b = JobInfo.builder(name)
                .namespace(ns)
                .queue(queue)
                .minMember(minMember)
                .phase(PodGroupPhase.Inqueue);
        minTaskMember.forEach(b::minTaskMember);
        for (TaskInfo t : pods) b.task(t);
        return b.build();
    }

    static Stream<Case> testAllocate() {
        List<QueueInfo> c1 = List.of(QueueInfo.of("c1", 1));
        return Stream.of(
                new Case(
                        "prepredicate failed: node selector does not match",
                        List.of(node("n1", "2", "4Gi", "nodeRole", "worker")),
                        c1,
                        List.of(pg(
                                "pg1",
                                "c1",
                                "c1",
                                1,
                                Map.of(),
                                pod("p1", "master", "1", "master"),
                                pod("p2", "worker", "1", "worker"))),
                        Map.of("c1/p2", "n1")),
                new Case(
                        "prepredicate failed and tasks are not used up, continue on until min member meet",
                        List.of(
                                node("n1", "1", "2Gi", "nodeRole", "master"),
                                node("n2", "1", "2Gi", "nodeRole", "worker")),
                        c1,
                        List.of(pg(
                                "pg1",
                                "c1",
                                "c1",
                                2,
                                Map.of("master", 1, "worker", 1),
                                pod("p0", "master", "1", "master"),
                                pod("p1", "master", "1", "master"),
                                pod("p2", "worker", "1", "worker"),
                                pod("p3", "worker", "1", "worker"))),
                        Map.of("c1/p0", "n1", "c1/p2", "n2")),
                new Case(
                        "master's min member can not be allocated, break from allocating",
                        List.of(
                                node("n1", "1", "2Gi", "nodeRole", "master"),
                                node("n2", "2", "2Gi", "nodeRole", "worker")),
                        c1,
                        List.of(pg(
                                "pg1",
                                "c1",
                                "c1",
                                2,
                                Map.of("master", 2, "worker", 0),
                                pod("p0", "master", "1", "master"),
                                pod("p1", "master", "1", "master"),
                                pod("p2", "worker", "1", "worker"),
                                pod("p3", "worker", "1", "worker"))),
                        Map.of()),
                new Case(
                        "one Job with two Pods on one node",
                        List.of(node("n1", "2", "4Gi")),
                        c1,
                        List.of(pg("pg1", "c1", "c1", 0, Map.of(), pod("p1", "", "1", null), pod("p2", "", "1", null))),
                        Map.of("c1/p1", "n1", "c1/p2", "n1")),
                new Case(
                        "two Jobs on one node",
                        List.of(node("n1", "2", "4G")),
                        List.of(QueueInfo.of("c1", 1), QueueInfo.of("c2", 1)),
                        List.of(
                                pg(
                                        "pg1",
                                        "c1",
                                        "c1",
                                        0,
                                        Map.of(),
                                        pod("pg1-p-1", "", "1", null),
                                        pod("pg1-p-2", "", "1", null)),
                                pg(
                                        "pg2",
                                        "c2",
                                        "c2",
                                        0,
                                        Map.of(),
                                        pod("pg2-p-1", "", "1", null),
                                        pod("pg2-p-2", "", "1", null))),
                        Map.of("c2/pg2-p-1", "n1", "c1/pg1-p-1", "n1")),
                new Case(
                        "high priority queue should not block others",
                        List.of(node("n1", "2", "4G")),
                        List.of(QueueInfo.of("c1", 1), QueueInfo.of("c2", 1)),
                        List.of(
                                pg("pg1", "c1", "c1", 0, Map.of(), pod("p1", "", "3", null)),
                                pg("pg2", "c1", "c2", 0, Map.of(), pod("p2", "", "1", null))),
                        Map.of("c1/p2", "n1")));
    }

    static Map<String, String> bound(SessionResult r) {
        return VolcanoTables.bound(r);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("testAllocate")
    void asVolcanosTestAllocate(Case c) {
        SessionResult r = new Scheduler(conf("")).schedule(new Snapshot(c.nodes(), c.queues(), c.jobs()));
        assertThat(bound(r)).isEqualTo(new TreeMap<>(c.expectBind()));
    }

    /** TestParseArgs "set cache false": the argument is read (and an unknown one would be refused). */
    @Test
    void theCacheSwitchIsAnArgumentOfAllocate() {
        SchedulerConf c = conf("configurations:\n- name: allocate\n  arguments: {predicateErrorCacheEnable: false}\n");
        assertThat(c.actionArguments("allocate").getBool(Allocate.PREDICATE_ERROR_CACHE, true))
                .isFalse();
    }

    /**
     * Volcano's error cache keeps a node a role's first task found too small from its later,
     * smaller tasks in the same turn: the gang of three does not start, though it would fit.
     */
    @Test
    void theErrorCacheKeepsANodeFromTheRolesLaterTasks() {
        List<NodeInfo> nodes = List.of(node("a", "1", "4Gi"), node("b", "3", "8Gi"));
        JobInfo job = pg(
                "pg",
                "ns",
                "c1",
                3,
                Map.of(),
                pod("w-0", "w", "2", null),
                pod("w-1", "w", "1", null),
                pod("w-2", "w", "1", null));
        Snapshot s = new Snapshot(nodes, List.of(QueueInfo.of("c1", 1)), List.of(job));
        assertThat(new Scheduler(conf("")).schedule(s).bindings()).isEmpty();
        SessionResult off = new Scheduler(
                        conf("configurations:\n- name: allocate\n  arguments: {predicateErrorCacheEnable: false}\n"))
                .schedule(s);
        assertThat(bound(off)).containsEntry("ns/w-0", "b").hasSize(3).containsValue("a");
    }

    /**
     * With the cache, a zone refused by one task's spread stays refused for the role's later tasks
     * in the turn: six pods over three zones with maxSkew 1 place only four before the cache runs
     * out of zones, so a gang of six waits; without it all six are placed, two per zone.
     */
    @Test
    void theErrorCacheKeepsASpreadsRefusedZones() {
        List<NodeInfo> nodes = new ArrayList<>();
        for (int z = 0; z < 3; z++) nodes.add(node("n" + z, "8", "16Gi", "zone", "z" + z));
        PodSpec spread = new PodSpec(
                Map.of("app", "s"),
                null,
                null,
                null,
                null,
                null,
                List.of(new TopologySpreadConstraint(
                        1,
                        "zone",
                        TopologySpreadConstraint.WhenUnsatisfiable.DoNotSchedule,
                        LabelSelector.of(Map.of("app", "s")),
                        1,
                        null,
                        null)),
                null,
                null);
        JobInfo.Builder b =
                JobInfo.builder("pg").namespace("ns").queue("c1").minMember(6).phase(PodGroupPhase.Inqueue);
        for (int i = 0; i < 6; i++)
            b.task(TaskInfo.builder("w-" + i)
                    .role("w")
                    .resreq(Map.of("cpu", "1", "memory", "1G"))
                    .spec(spread)
                    .build());
        Snapshot s = new Snapshot(nodes, List.of(QueueInfo.of("c1", 1)), List.of(b.build()));
        SessionResult on = new Scheduler(conf("")).schedule(s);
        assertThat(on.bindings()).isEmpty();
        assertThat(on.conditions().get("ns/pg").message())
                .contains("only 4 of minMember 6 tasks could be placed")
                .contains("3 node(s) didn't match pod topology spread constraints");
        SessionResult off = new Scheduler(
                        conf("configurations:\n- name: allocate\n  arguments: {predicateErrorCacheEnable: false}\n"))
                .schedule(s);
        Map<String, Long> perNode = new TreeMap<>();
        for (SessionResult.Binding x : off.bindings()) perNode.merge(x.node(), 1L, Long::sum);
        assertThat(perNode).isEqualTo(Map.of("n0", 2L, "n1", 2L, "n2", 2L));
    }
}
