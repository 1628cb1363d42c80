package io.lahar.core.scheduling.actions;

import static io.lahar.core.scheduling.Fixtures.node;
import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.api.PodGroupPhase;
import io.lahar.core.scheduling.api.JobInfo;
import io.lahar.core.scheduling.api.Snapshot;
import io.lahar.core.scheduling.api.TaskInfo;
import io.lahar.core.scheduling.api.TaskStatus;
import io.lahar.core.scheduling.framework.Functions.VictimTasksFn;
import io.lahar.core.scheduling.framework.Plugin;
import io.lahar.core.scheduling.framework.PluginRegistry;
import io.lahar.core.scheduling.framework.SchedulerConf;
import io.lahar.core.scheduling.framework.Session;
import io.lahar.core.scheduling.framework.SessionResult;
import io.lahar.core.scheduling.framework.SessionTask;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The shuffle action after Volcano's {@code TestShuffle} (pkg/scheduler/actions/shuffle/shuffle_test.go):
 * a plugin whose victim-tasks function picks the low-priority running tasks has exactly those evicted.
 */
class ShuffleTest {

    static final int LOW = 10;
    static final int HIGH = 100;

    /** A plugin that registers one victim-tasks function. */
    static Plugin victimPlugin(String name, VictimTasksFn fn) {
        return new Plugin() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public void onSessionOpen(Session ssn) {
                ssn.addVictimTasksFns(name, List.of(fn));
            }
        };
    }

    /** Volcano's fake plugin: its victims are the candidates of low priority. */
    static PluginRegistry registry() {
        return PluginRegistry.defaults()
                .registerPlugin(
                        "fake",
                        args -> victimPlugin("fake", candidates -> {
                            List<SessionTask> evicts = new ArrayList<>();
                            for (SessionTask t : candidates) if (t.priority() == LOW) evicts.add(t);
                            return evicts;
                        }));
    }

    static TaskInfo pod(String name, String node, int priority, TaskStatus status) {
        return TaskInfo.builder(name)
                .priority(priority)
                .resreq(Map.of("cpu", "1", "memory", "2G"))
                .on(node, status)
                .build();
    }

    static JobInfo group(String name, TaskInfo... pods) {
        JobInfo.Builder b = JobInfo.builder(name)
                .namespace("test")
                .phase(PodGroupPhase.Running)
                .minMember(0);
        for (TaskInfo t : pods) b.task(t);
        return b.build();
    }

    static Snapshot volcanosCase() {
        return new Snapshot(
                List.of(node("node1", "4", "8Gi"), node("node2", "4", "8Gi")),
                List.of(),
                List.of(
                        group(
                                "pg1",
                                pod("pod1-1", "node1", LOW, TaskStatus.Running),
                                pod("pod1-2", "node1", HIGH, TaskStatus.Running),
                                pod("pod1-3", "node1", HIGH, TaskStatus.Running)),
                        group(
                                "pg2",
                                pod("pod2-1", "node1", LOW, TaskStatus.Running),
                                pod("pod2-2", "node2", HIGH, TaskStatus.Running)),
                        group(
                                "pg3",
                                pod("pod3-1", "node2", LOW, TaskStatus.Running),
                                pod("pod3-2", "node2", HIGH, TaskStatus.Running))));
    }

    static SessionResult run(PluginRegistry registry, String tiers, Snapshot s) {
        SchedulerConf conf = SchedulerConf.parse("actions: \"shuffle\"\ntiers:\n" + tiers, registry);
        return Session.open(conf, s, registry).run(registry);
    }

    @Test
    void selectPodsWithLowPriorityAndEvictThem() {
        SessionResult r = run(registry(), "- plugins:\n  - name: fake\n    enableVictim: true\n", volcanosCase());
        assertThat(r.evictions())
                .extracting(e -> e.job() + "/" + e.task())
                .containsExactly("test/pg1/pod1-1", "test/pg2/pod2-1", "test/pg3/pod3-1");
        assertThat(r.evictions()).allSatisfy(e -> {
            assertThat(e.action()).isEqualTo(Shuffle.NAME);
            assertThat(e.reason()).isEqualTo(Shuffle.REASON);
        });
        assertThat(r.bindings()).isEmpty();
    }

    @Test
    void aPluginWithItsVictimSwitchOffSelectsNothing() {
        SessionResult r = run(registry(), "- plugins:\n  - name: fake\n    enableVictim: false\n", volcanosCase());
        assertThat(r.evictions()).isEmpty();
    }

    @Test
    void onlyRunningTasksAreCandidates() {
        Snapshot s = new Snapshot(
                List.of(node("node1", "4", "8Gi")),
                List.of(),
                List.of(group(
                        "pg1",
                        pod("bound", "node1", LOW, TaskStatus.Bound),
                        pod("releasing", "node1", LOW, TaskStatus.Releasing),
                        pod("running", "node1", LOW, TaskStatus.Running))));
        SessionResult r = run(registry(), "- plugins:\n  - name: fake\n", s);
        assertThat(r.evictions()).extracting(e -> e.task()).containsExactly("running");
    }

    @Test
    void theFirstTierThatFindsVictimsDecides() {
        PluginRegistry registry = registry()
                .registerPlugin("none", args -> victimPlugin("none", candidates -> List.of()))
                .registerPlugin("all", args -> victimPlugin("all", candidates -> candidates));
        // A tier that finds none passes to the next; one that finds some ends the search.
        SessionResult r = run(
                registry,
                "- plugins:\n  - name: none\n- plugins:\n  - name: fake\n- plugins:\n  - name: all\n",
                volcanosCase());
        assertThat(r.evictions()).hasSize(3);
        r = run(registry, "- plugins:\n  - name: none\n- plugins:\n  - name: all\n  - name: fake\n", volcanosCase());
        assertThat(r.evictions()).hasSize(7);
    }
}
