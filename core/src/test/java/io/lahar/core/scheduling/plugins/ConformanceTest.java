package io.lahar.core.scheduling.plugins;

import static io.lahar.core.scheduling.Fixtures.nodes;
import static io.lahar.core.scheduling.Fixtures.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.api.PodGroupPhase;
import io.lahar.core.scheduling.Fixtures;
import io.lahar.core.scheduling.api.JobInfo;
import io.lahar.core.scheduling.api.TaskInfo;
import io.lahar.core.scheduling.api.TaskStatus;
import io.lahar.core.scheduling.framework.SessionResult;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConformanceTest {

    private static JobInfo system(String ns, int priority) {
        return JobInfo.builder("sys")
                .namespace(ns)
                .priority(0)
                .phase(PodGroupPhase.Running)
                .minMember(1)
                .task(TaskInfo.builder("sys-0")
                        .priority(priority)
                        .resreq(Map.of("cpu", "2"))
                        .on("n0", TaskStatus.Running)
                        .build())
                .build();
    }

    private static SessionResult preemptWith(JobInfo victim) {
        JobInfo high = JobInfo.builder("high")
                .namespace(victim.namespace())
                .priority(100)
                .tasks("w", 1, Map.of("cpu", "2"))
                .phase(PodGroupPhase.Inqueue)
                .build();
        return run(
                Fixtures.defaultTiers("enqueue, allocate, preempt"),
                nodes(1, "2", "8Gi"),
                List.of(),
                List.of(victim, high));
    }

    @Test
    void kubeSystemPodsAreNeverVictims() {
        assertThat(preemptWith(system("kube-system", 0)).evictions()).isEmpty();
    }

    @Test
    void criticalPriorityPodsAreNeverVictims() {
        assertThat(preemptWith(system("default", Conformance.SYSTEM_CRITICAL_PRIORITY))
                        .evictions())
                .isEmpty();
    }

    @Test
    void ordinaryPodsMayBe() {
        assertThat(preemptWith(system("default", 0)).evictions()).hasSize(1);
    }
}
