package io.lahar.core.scheduling.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.scheduling.api.JobInfo;
import io.lahar.core.scheduling.api.NodeInfo;
import io.lahar.core.scheduling.api.Snapshot;
import io.lahar.core.scheduling.api.TaskInfo;
import io.lahar.core.scheduling.framework.Scheduler;
import io.lahar.core.scheduling.framework.SessionResult;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The constrained benchmark workload is what its harness row says, and the default scheduler can place all of it. */
class WorkloadTest {

    @Test
    void aFifthOfThePodsAreConstrainedAndEveryGangIsPlacedWithinItsConstraint() {
        Snapshot s = Workload.constrained(200, 2_000, 42);
        int pods = s.jobs().stream().mapToInt(j -> j.tasks().size()).sum();
        assertThat(Workload.constrainedPods(s)).isBetween(pods / 5, pods / 5 + 64);

        SessionResult r = Scheduler.withDefaults().schedule(s);
        assertThat(r.bindings()).hasSize(pods);
        Map<String, String> nodeOf = new HashMap<>();
        for (SessionResult.Binding b : r.bindings()) nodeOf.put(b.job() + "/" + b.task(), b.node());
        Map<String, String> zoneOf = new HashMap<>();
        for (NodeInfo n : s.nodes()) zoneOf.put(n.name(), n.labels().get(Workload.ZONE));
        for (JobInfo j : s.jobs()) {
            TaskInfo first = j.tasks().get(0);
            List<String> nodes = j.tasks().stream()
                    .map(t -> nodeOf.get(j.key() + "/" + t.name()))
                    .toList();
            if (!first.spec().requiredAntiAffinity().isEmpty()) {
                Set<String> distinct = new HashSet<>(nodes);
                assertThat(distinct).as("one pod of %s a node", j.key()).hasSize(nodes.size());
            }
            if (!first.spec().topologySpread().isEmpty()) {
                Map<String, Integer> perZone = new HashMap<>(Map.of("z0", 0, "z1", 0, "z2", 0, "z3", 0));
                for (String n : nodes) perZone.merge(zoneOf.get(n), 1, Integer::sum);
                int skew = perZone.values().stream().max(Integer::compare).orElseThrow()
                        - perZone.values().stream().min(Integer::compare).orElseThrow();
                assertThat(skew)
                        .as("skew of %s", j.key())
                        .isLessThanOrEqualTo(
                                first.spec().topologySpread().get(0).maxSkew());
            }
        }
    }
}
