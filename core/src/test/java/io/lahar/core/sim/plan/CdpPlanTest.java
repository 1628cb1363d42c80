package io.lahar.core.sim.plan;

import static io.lahar.core.sim.plan.PlanScenarios.boundOf;
import static io.lahar.core.sim.plan.PlanScenarios.inqueue;
import static io.lahar.core.sim.plan.PlanScenarios.job;
import static io.lahar.core.sim.plan.PlanScenarios.nodes;
import static io.lahar.core.sim.plan.PlanScenarios.queue;
import static io.lahar.core.sim.plan.PlanScenarios.runningGroup;
import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.scheduling.api.Problem;
import io.lahar.core.scheduling.framework.SchedulerConf;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code lahar plan} with the cdp plugin: a pod's cooldown-time and its PodScheduled condition are
 * read from the Pod document, and the cooldown is measured to the plan's time.
 */
class CdpPlanTest {

    static final String SCHEDULED = "2026-01-01T00:00:00Z";
    /** cdp in the first tier, proportion's reclaimable off: else the second tier, knowing no cooldown, decides. */
    static final SchedulerConf CONF = SchedulerConf.parse(PlanScenarios.RECLAIM_CONF
            .replace("  - name: conformance\n", "  - name: conformance\n  - name: cdp\n")
            .replace("  - name: proportion\n", "  - name: proportion\n    enableReclaimable: false\n"));

    static String pod(int index, String cooldownMeta) {
        return """
                apiVersion: v1
                kind: Pod
                metadata:
                  name: old-w-%d
                  labels: {volcano.sh/job-name: old, volcano.sh/task-spec: w}
                  annotations: {scheduling.k8s.io/group-name: old, volcano.sh/task-spec: w, %s}
                spec:
                  nodeName: n%d
                  containers: [{name: c, image: busybox, resources: {requests: {cpu: "1", memory: 1Gi}}}]
                status:
                  phase: Running
                  conditions: [{type: PodScheduled, status: "True", lastTransitionTime: "%s"}]
                ---
                """.formatted(index, cooldownMeta, index / 2, SCHEDULED);
    }

    /** Queue lender runs 4 pods on the whole cluster; owner (same weight) wants 2 back, as PlannerTest's reclaim. */
    static String world(String cooldownMeta) {
        StringBuilder y = new StringBuilder(
                nodes(2, "2") + queue("lender", 1, "") + queue("owner", 1, "") + runningGroup("old", "lender", 1, ""));
        for (int i = 0; i < 4; i++) y.append(pod(i, cooldownMeta));
        y.append(job("new", "owner", 2, 2, "1", "2026-01-01T00:00:01Z", "", "")).append(inqueue("new", "owner", 2));
        return y.toString();
    }

    static PlanWorld build(String yaml, Instant now, List<Problem> problems) {
        PlanInput in = PlanInput.read(List.of(new PlanInput.Source("snapshot.yaml", yaml)));
        problems.addAll(in.problems());
        return PlanWorld.build(in, now, problems);
    }

    static PlanReport plan(String yaml, Instant now) {
        List<Problem> problems = new ArrayList<>();
        PlanWorld world = build(yaml, now, problems);
        assertThat(problems).isEmpty();
        return new Planner(CONF).plan(world, null);
    }

    @Test
    void reclaimSparesThePodsWhileTheirCooldownLasts() {
        String yaml = world("volcano.sh/cooldown-time: 10m");
        PlanReport during = plan(yaml, Instant.parse("2026-01-01T00:09:00Z"));
        assertThat(during.evictions()).isEmpty();
        assertThat(boundOf(during, "new")).isZero();

        PlanReport after = plan(yaml, Instant.parse("2026-01-01T00:11:00Z"));
        assertThat(after.evictions()).hasSize(2).allMatch(e -> e.action().equals("reclaim"));
        assertThat(boundOf(after, "new")).isEqualTo(2);
    }

    @Test
    void aCooldownTimeThatIsNoDurationIsAProblemWithItsPath() {
        List<Problem> problems = new ArrayList<>();
        build(world("volcano.sh/cooldown-time: 600abcde"), null, problems);
        assertThat(problems)
                .extracting(Problem::path)
                .hasSize(4)
                .allMatch(p -> p.endsWith(".metadata.annotations.volcano.sh/cooldown-time"));
    }
}
