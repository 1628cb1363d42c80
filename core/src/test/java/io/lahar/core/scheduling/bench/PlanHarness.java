package io.lahar.core.scheduling.bench;

import io.lahar.core.scheduling.api.Problem;
import io.lahar.core.scheduling.framework.SchedulerConf;
import io.lahar.core.sim.plan.PlanInput;
import io.lahar.core.sim.plan.PlanReport;
import io.lahar.core.sim.plan.PlanWorld;
import io.lahar.core.sim.plan.Planner;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Where the time of {@code lahar plan} goes on a larger snapshot: reading the YAML, admission and
 * pod groups, the sessions. {@code PlanHarness NODES JOBS} (jobs of 10 pods of 1 cpu; nodes of 32 cpu).
 */
public final class PlanHarness {
    private PlanHarness() {}

    public static void main(String[] args) {
        int nodes = args.length > 0 ? Integer.parseInt(args[0]) : 1_000;
        int jobs = args.length > 1 ? Integer.parseInt(args[1]) : 1_000;
        StringBuilder y = new StringBuilder();
        for (int i = 0; i < nodes; i++) {
            y.append("apiVersion: v1\nkind: Node\nmetadata: {name: node-")
                    .append(i)
                    .append("}\nstatus: {allocatable: {cpu: \"32\", memory: 128Gi}}\n---\n");
        }
        for (int j = 0; j < jobs; j++) {
            y.append("apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata: {name: job-")
                    .append(j)
                    .append(
                            "}\nspec:\n  minAvailable: 10\n  tasks:\n  - name: w\n    replicas: 10\n    template: {spec: {containers:")
                    .append(" [{name: c, image: x, resources: {requests: {cpu: \"1\", memory: 1Gi}}}]}}\n---\n");
        }
        String text = y.toString();
        for (int round = 0; round < 3; round++) {
            long t0 = System.nanoTime();
            PlanInput in = PlanInput.read(List.of(new PlanInput.Source("bench", text)));
            long t1 = System.nanoTime();
            List<Problem> problems = new ArrayList<>();
            PlanWorld world = PlanWorld.build(in, problems);
            long t2 = System.nanoTime();
            PlanReport r = new Planner(SchedulerConf.defaults()).plan(world, null);
            long t3 = System.nanoTime();
            String out = r.toYaml();
            long t4 = System.nanoTime();
            System.out.printf(
                    Locale.ROOT,
                    "%d nodes, %d jobs (%d pods): read %.0f ms, admit+build %.0f ms, %d sessions %.0f ms,"
                            + " write %.0f ms; %d bound, %d bytes out%n",
                    nodes,
                    jobs,
                    jobs * 10,
                    (t1 - t0) / 1e6,
                    (t2 - t1) / 1e6,
                    r.sessions(),
                    (t3 - t2) / 1e6,
                    (t4 - t3) / 1e6,
                    r.bindings().size(),
                    out.length());
        }
    }
}
