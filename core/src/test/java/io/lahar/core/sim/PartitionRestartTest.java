package io.lahar.core.sim;

import static io.lahar.core.sim.SimulationTest.last;
import static io.lahar.core.sim.SimulationTest.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.api.Job;
import io.lahar.core.job.TestJobs;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Volcano's RestartPartition: a failing pod restarts the pods of its partition, the others run on. */
class PartitionRestartTest {

    /** Two partitions of two workers: worker-0 and worker-1 form partition 0, worker-2 and worker-3 partition 1. */
    private static Job partitioned(String policy) {
        return TestJobs.admitted("""
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata: {name: llm}
                spec:
                  tasks:
                  - name: worker
                    replicas: 4
                    partitionPolicy: {totalPartitions: 2, partitionSize: 2, minPartitions: 2}
                    policies: [%s]
                    template:
                      spec:
                        containers: [{name: w, image: w}]
                """.formatted(policy));
    }

    private static final String ALL_RUN = """
            {"pod":{"task":"worker","index":0,"phase":"Running"}}
            {"pod":{"task":"worker","index":1,"phase":"Running"}}
            {"pod":{"task":"worker","index":2,"phase":"Running"}}
            {"pod":{"task":"worker","index":3,"phase":"Running"}}
            """;

    @Test
    void aFailedPodRestartsOnlyItsPartition() {
        List<StepReport> r = run(partitioned("{event: PodFailed, action: RestartPartition}"), false, ALL_RUN + """
                {"pod":{"task":"worker","index":3,"phase":"Failed","exitCode":1}}
                """);

        StepReport failed = r.get(5);
        assertThat(failed.transitions()).startsWith("Restarting");
        assertThat(failed.retryCount()).isEqualTo(1);
        assertThat(failed.pods())
                .containsEntry("worker-0", "Running")
                .containsEntry("worker-1", "Running")
                .containsEntry("worker-2", "Pending")
                .containsEntry("worker-3", "Pending");
    }

    @Test
    void aDelayedRestartPartitionIsCancelledByARestartOfTheSamePartitionOnly() {
        List<StepReport> r =
                run(partitioned("{event: PodFailed, action: RestartPartition, timeout: 30s}"), false, ALL_RUN + """
                {"pod":{"task":"worker","index":0,"phase":"Failed","exitCode":1}}
                {"pod":{"task":"worker","index":2,"phase":"Failed","exitCode":1}}
                {"command":"RestartPartition","pod":"worker-3"}
                {"advance":"30s"}
                """);

        // The command restarted partition 1 at once and cancelled worker-2's timer; worker-0's
        // timer, of partition 0, still fires after its 30 s.
        assertThat(r.get(7).pods()).containsEntry("worker-0", "Failed").containsEntry("worker-2", "Pending");
        assertThat(r.get(7).retryCount()).isEqualTo(1);
        assertThat(last(r).retryCount()).isEqualTo(2);
        assertThat(last(r).pods()).containsEntry("worker-0", "Pending").containsEntry("worker-1", "Pending");
    }

    @Test
    void aJobWithoutPartitionsCannotNameRestartPartition() {
        String yaml = """
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata: {name: plain}
                spec:
                  policies: [{event: PodFailed, action: RestartPartition}]
                  tasks:
                  - name: worker
                    replicas: 2
                    policies: [{event: PodEvicted, action: RestartPartition}]
                    template:
                      spec:
                        containers: [{name: w, image: w}]
                """;
        var result = io.lahar.core.admission.JobAdmission.create(
                io.lahar.core.api.Manifests.read(yaml, Job.class),
                io.lahar.core.admission.AdmissionContext.freshInstall());

        assertThat(result.violations())
                .extracting(v -> v.path() + ": " + v.message())
                .contains(
                        "spec.policies[0].action: RestartPartition restarts a partition of a task's partitionPolicy, but no task has a partitionPolicy",
                        "spec.tasks[0].policies[0].action: RestartPartition restarts a partition of a task's partitionPolicy, but the task has no partitionPolicy");
    }
}
