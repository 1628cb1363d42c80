package io.lahar.core.scheduling.framework;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lahar.core.scheduling.api.Problem;
import org.junit.jupiter.api.Test;

class SchedulerConfTest {

    @Test
    void volcanosDefaultIsTheDefault() {
        SchedulerConf c = SchedulerConf.defaults();
        assertThat(c.actions()).containsExactly("enqueue", "allocate", "backfill");
        assertThat(c.tiers()).hasSize(2);
        assertThat(c.tiers().get(0).plugins())
                .extracting(PluginOption::name)
                .containsExactly("priority", "gang", "conformance");
        assertThat(c.tiers().get(1).plugins())
                .extracting(PluginOption::name)
                .containsExactly("overcommit", "drf", "predicates", "proportion", "nodeorder");
    }

    @Test
    void readsSwitchesAndArguments() {
        SchedulerConf c = SchedulerConf.parse("""
                actions: "enqueue, allocate, backfill, reclaim, preempt"
                tiers:
                - plugins:
                  - name: priority
                  - name: gang
                    enablePreemptable: false
                    enabledReclaimable: false
                - plugins:
                  - name: proportion
                    enabledQueueOrder: false
                  - name: binpack
                    arguments:
                      binpack.weight: 10
                      binpack.resources: nvidia.com/gpu
                      binpack.resources.nvidia.com/gpu: 4
                configurations:
                - name: allocate
                  arguments: {candidateIndex: false}
                """);
        PluginOption gang = c.tiers().get(0).plugins().get(1);
        assertThat(gang.isEnabled(Extension.PREEMPTABLE)).isFalse();
        assertThat(gang.isEnabled(Extension.RECLAIMABLE)).isFalse();
        assertThat(gang.isEnabled(Extension.JOB_READY)).isTrue();
        assertThat(c.tiers().get(1).plugins().get(0).isEnabled(Extension.QUEUE_ORDER))
                .isFalse();
        assertThat(c.tiers().get(1).plugins().get(1).arguments().getDouble("binpack.weight", 1))
                .isEqualTo(10);
        assertThat(c.actionArguments("allocate").getBool("candidateIndex", true))
                .isFalse();
        assertThat(c.actions()).containsExactly("enqueue", "allocate", "backfill", "reclaim", "preempt");
    }

    @Test
    void namesEveryProblemWithItsPath() {
        assertThatThrownBy(() -> SchedulerConf.parse("""
                actions: "enqueue, allocat, enqueue"
                tiers:
                - plugins:
                  - name: gang
                    enableEverything: true
                  - name: gangg
                - plugins:
                  - name: overcommit
                    arguments: {overcommit-factor: lots}
                  - name: gang
                colour: blue
                """))
                .isInstanceOfSatisfying(
                        InvalidConfException.class,
                        e -> assertThat(e.problems())
                                .extracting(Problem::path)
                                .containsExactlyInAnyOrder(
                                        "colour",
                                        "actions",
                                        "actions",
                                        "tiers[0].plugins[0].enableEverything",
                                        "tiers[0].plugins[1].name",
                                        "tiers[1].plugins[0].arguments",
                                        "tiers[1].plugins[1].name"))
                .hasMessageContaining("unknown action \"allocat\"")
                .hasMessageContaining("action \"enqueue\" listed twice")
                .hasMessageContaining("unknown plugin \"gangg\"")
                .hasMessageContaining("overcommit-factor: expected a number")
                .hasMessageContaining("plugin \"gang\" configured twice");
    }

    /** Only capacity carries out hierarchical queues (as in Volcano); elsewhere enableHierarchy is refused, not ignored. */
    @Test
    void enableHierarchyOnAPluginWithoutHierarchicalQueuesIsAProblemWithItsPath() {
        assertThatThrownBy(() -> SchedulerConf.parse("""
                actions: "enqueue, allocate"
                tiers:
                - plugins:
                  - name: proportion
                    enableHierarchy: true
                """))
                .isInstanceOfSatisfying(
                        InvalidConfException.class,
                        e -> assertThat(e.problems())
                                .extracting(Problem::path)
                                .containsExactly("tiers[0].plugins[0].enableHierarchy"))
                .hasMessageContaining("supported by: capacity");
        SchedulerConf capacity = SchedulerConf.parse("""
                actions: "enqueue, allocate"
                tiers:
                - plugins:
                  - name: capacity
                    enableHierarchy: true
                  - name: gang
                """);
        assertThat(capacity.tiers().get(0).plugins().get(0).isEnabled(Extension.HIERARCHY))
                .isTrue();
        assertThat(capacity.tiers().get(0).plugins().get(1).isEnabled(Extension.HIERARCHY))
                .isFalse();
    }

    @Test
    void anArgumentNoPluginOrActionReadsIsAProblemWithItsPath() {
        assertThatThrownBy(() -> SchedulerConf.parse("""
                actions: "enqueue, allocate, preempt"
                tiers:
                - plugins:
                  - name: binpack
                    arguments: {binpack.wieght: 3}
                  - name: predicates
                    arguments: {predicate.VolumeBindingEnable: true, predicate.PodAffinityEnable: false}
                configurations:
                - name: allocate
                  arguments: {candidateIndx: false}
                - name: preempt
                  arguments: {enableTopologyAwarePreemption: true}
                """))
                .isInstanceOfSatisfying(
                        InvalidConfException.class,
                        e -> assertThat(e.problems())
                                .extracting(Problem::path)
                                .containsExactlyInAnyOrder(
                                        "tiers[0].plugins[0].arguments.binpack.wieght",
                                        "tiers[0].plugins[1].arguments",
                                        "configurations[0].arguments.candidateIndx",
                                        "configurations[1].arguments.enableTopologyAwarePreemption"))
                .hasMessageContaining("unknown argument of plugin \"binpack\"")
                .hasMessageContaining("predicate.VolumeBindingEnable: only false is supported")
                .hasMessageContaining("unknown argument of action \"preempt\"");
    }

    @Test
    void notYamlOrEmptyIsAProblemNotACrash() {
        assertThatThrownBy(() -> SchedulerConf.parse("actions: [unclosed"))
                .isInstanceOf(InvalidConfException.class)
                .hasMessageContaining("not YAML");
        assertThatThrownBy(() -> SchedulerConf.parse("")).isInstanceOf(InvalidConfException.class);
        assertThatThrownBy(() -> SchedulerConf.parse("- a\n- b"))
                .isInstanceOf(InvalidConfException.class)
                .hasMessageContaining("expected a mapping");
        assertThatThrownBy(() -> SchedulerConf.parse("tiers: []"))
                .isInstanceOf(InvalidConfException.class)
                .hasMessageContaining("actions: expected a comma-separated list");
    }
}
