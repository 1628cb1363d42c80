package io.lahar.core.scheduling.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.api.PodGroupPhase;
import io.lahar.core.job.plugins.PodLabels;
import io.lahar.core.scheduling.api.DisruptionBudget;
import io.lahar.core.scheduling.api.JobInfo;
import io.lahar.core.scheduling.api.NodeInfo;
import io.lahar.core.scheduling.api.Snapshot;
import io.lahar.core.scheduling.api.TaskInfo;
import io.lahar.core.scheduling.api.TaskStatus;
import io.lahar.core.scheduling.framework.PluginRegistry;
import io.lahar.core.scheduling.framework.Scheduler;
import io.lahar.core.scheduling.framework.SchedulerConf;
import io.lahar.core.scheduling.framework.SessionResult;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Whole sessions with tdm and the shuffle action: a revocable job goes to the revocable node only
 * while its zone's window is open, and once it has closed its pods there are evicted within the
 * job's disruption budget, at most once per evict period.
 */
public class TdmSessionTest {

    /** Volcano's default configuration with shuffle, and tdm in the first tier. */
    public static String conf(String tdmArguments) {
        return SchedulerConf.DEFAULT_YAML
                .replace("enqueue, allocate, backfill", "enqueue, allocate, backfill, shuffle")
                .replace(
                        "  - name: conformance\n",
                        "  - name: conformance\n  - name: tdm\n    arguments: " + tdmArguments + "\n");
    }

    static final String CONF = conf("{tdm.revocable-zone.rz1: \"10:00-21:00\", tdm.evict.period: 1m}");

    static final Instant NOON = Instant.parse("2026-01-01T12:00:00Z");
    static final Instant NIGHT = Instant.parse("2026-01-01T22:00:00Z");

    static final List<NodeInfo> NODES = List.of(
            NodeInfo.builder("lent")
                    .allocatable(Map.of("cpu", "4", "memory", "4Gi"))
                    .label(PodLabels.REVOCABLE_ZONE, "rz1")
                    .build(),
            NodeInfo.builder("own")
                    .allocatable(Map.of("cpu", "4", "memory", "4Gi"))
                    .build());

    /** Four one-cpu pods of a job marked volcano.sh/revocable-zone: "*" with jdb-max-unavailable 50%. */
    static JobInfo revocable(String name, TaskStatus status, String node) {
        JobInfo.Builder b = JobInfo.builder(name)
                .phase(node == null ? PodGroupPhase.Inqueue : PodGroupPhase.Running)
                .budget(DisruptionBudget.of(Map.of(PodLabels.JDB_MAX_UNAVAILABLE, "50%")));
        for (int i = 0; i < 4; i++) {
            TaskInfo.Builder t = TaskInfo.builder(name + "-" + i)
                    .role("w")
                    .resreq(Map.of("cpu", "1", "memory", "1Gi"))
                    .revocableZone(TaskInfo.revocableZoneOf(Map.of(PodLabels.REVOCABLE_ZONE, "*")));
            b.task((node == null ? t.status(status) : t.on(node, status)).build());
        }
        return b.minMember(1).build();
    }

    static JobInfo plain() {
        return JobInfo.builder("plain")
                .phase(PodGroupPhase.Inqueue)
                .tasks("w", 2, Map.of("cpu", "1", "memory", "1Gi"))
                .minMember(2)
                .creationIndex(1)
                .build();
    }

    static Scheduler scheduler() {
        return new Scheduler(SchedulerConf.parse(CONF), PluginRegistry.defaults());
    }

    @Test
    void insideTheWindowARevocableJobGoesToTheLentNodeAndOthersNever() {
        SessionResult r = scheduler()
                .schedule(new Snapshot(NODES, List.of(), List.of(revocable("batch", TaskStatus.Pending, null), plain()))
                        .at(NOON));
        assertThat(r.bindings())
                .filteredOn(b -> b.job().equals("default/batch"))
                .extracting(SessionResult.Binding::node)
                .containsExactly("lent", "lent", "lent", "lent");
        assertThat(r.bindings())
                .filteredOn(b -> b.job().equals("default/plain"))
                .extracting(SessionResult.Binding::node)
                .containsExactly("own", "own");
        assertThat(r.evictions()).isEmpty();
    }

    @Test
    void outsideTheWindowNothingGoesToTheLentNode() {
        SessionResult r = scheduler()
                .schedule(new Snapshot(NODES, List.of(), List.of(revocable("batch", TaskStatus.Pending, null)))
                        .at(NIGHT));
        assertThat(r.bindings()).extracting(SessionResult.Binding::node).containsOnly("own");
        assertThat(r.bindings()).hasSize(4);
    }

    @Test
    void onceTheWindowClosesThePodsOnTheLentNodeAreEvictedWithinTheBudgetOncePerPeriod() {
        Scheduler scheduler = scheduler();
        JobInfo running = revocable("batch", TaskStatus.Running, "lent");
        Snapshot night = new Snapshot(NODES, List.of(), List.of(running));

        // Inside the window nothing is evicted.
        assertThat(scheduler.schedule(night.at(NOON)).evictions()).isEmpty();

        // 50% of four: two are evicted by shuffle.
        SessionResult r = scheduler.schedule(night.at(NIGHT));
        assertThat(r.evictions()).hasSize(2).allSatisfy(e -> {
            assertThat(e.node()).isEqualTo("lent");
            assertThat(e.action()).isEqualTo("shuffle");
        });

        // Within the evict period no more, whatever the budget allows.
        assertThat(scheduler.schedule(night.at(NIGHT.plusSeconds(30))).evictions())
                .isEmpty();

        // After it: the two evicted pods are pending again, so the budget is spent.
        List<TaskInfo> tasks = running.tasks().stream()
                .map(t -> r.evictions().stream().anyMatch(e -> e.task().equals(t.name()))
                        ? t.with(TaskStatus.Pending, null)
                        : t)
                .toList();
        SessionResult later =
                scheduler.schedule(new Snapshot(NODES, List.of(), List.of(running.with(PodGroupPhase.Running, tasks)))
                        .at(NIGHT.plusSeconds(60)));
        assertThat(later.evictions()).isEmpty();
        // They are placed again, on the node of no zone.
        assertThat(later.bindings())
                .hasSize(2)
                .allSatisfy(b -> assertThat(b.node()).isEqualTo("own"));
    }
}
