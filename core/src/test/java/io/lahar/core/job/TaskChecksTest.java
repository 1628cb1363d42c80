package io.lahar.core.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.api.JobSpec;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TaskChecksTest {

    private static final JobSpec SPEC = TestJobs.admitted("""
            apiVersion: batch.volcano.sh/v1alpha1
            kind: Job
            metadata: {name: j}
            spec:
              tasks:
              - {name: a, replicas: 2, minAvailable: 1, template: {spec: {containers: [{name: c, image: i}]}}}
              - {name: b, replicas: 1, template: {spec: {containers: [{name: c, image: i}]}}}
              - name: all
                replicas: 1
                dependsOn: {name: [a, b]}
                template: {spec: {containers: [{name: c, image: i}]}}
              - name: any
                replicas: 1
                maxRetry: 5
                dependsOn: {name: [a, b], iteration: any}
                template: {spec: {containers: [{name: c, image: i}]}}
            """).spec();

    private final Map<String, JobPod> pods = new HashMap<>();

    private PodTally tally() {
        return FrozenPods.copyOf(pods).builder().tally();
    }

    private void pod(String task, int index, PodPhase phase, int restarts) {
        String name = "j-" + task + "-" + index;
        pods.put(name, new JobPod(name, task, index, 0, phase, null, restarts, true, false));
    }

    @Test
    void dependenciesAreReadyWhenAllOrAnyHaveMinAvailablePodsRunningOrDone() {
        assertThat(TaskChecks.dependenciesReady(SPEC, tally(), TaskChecks.task(SPEC, "a")))
                .isTrue();
        assertThat(TaskChecks.dependenciesReady(SPEC, tally(), TaskChecks.task(SPEC, "all")))
                .isFalse();
        assertThat(TaskChecks.dependenciesReady(SPEC, tally(), TaskChecks.task(SPEC, "any")))
                .isFalse();
        pod("a", 0, PodPhase.Running, 0);
        assertThat(TaskChecks.dependenciesReady(SPEC, tally(), TaskChecks.task(SPEC, "all")))
                .isFalse();
        assertThat(TaskChecks.dependenciesReady(SPEC, tally(), TaskChecks.task(SPEC, "any")))
                .isTrue();
        pod("b", 0, PodPhase.Succeeded, 0);
        assertThat(TaskChecks.dependenciesReady(SPEC, tally(), TaskChecks.task(SPEC, "all")))
                .isTrue();
    }

    @Test
    void aTaskCompletesWhenAllItsReplicasSucceeded() {
        pod("a", 0, PodPhase.Succeeded, 0);
        assertThat(TaskChecks.completed(SPEC, tally(), "a")).isFalse();
        pod("a", 1, PodPhase.Succeeded, 0);
        assertThat(TaskChecks.completed(SPEC, tally(), "a")).isTrue();
        assertThat(TaskChecks.completed(SPEC, tally(), "nope")).isFalse();
    }

    @Test
    void aTaskFailsWhenItsLivePodsRestartedMoreThanItsMaxRetry() {
        pod("any", 0, PodPhase.Running, 5);
        assertThat(TaskChecks.failed(SPEC, tally(), "any")).isFalse();
        pod("any", 0, PodPhase.Running, 6);
        assertThat(TaskChecks.failed(SPEC, tally(), "any")).isTrue();
        pod("any", 0, PodPhase.Failed, 6);
        assertThat(TaskChecks.failed(SPEC, tally(), "any")).isFalse();
    }

    @Test
    void maxRetryDefaultsToVolcanosThreeAndMinAvailableToTheReplicas() {
        assertThat(TaskChecks.maxRetry(SPEC)).isEqualTo(3);
        assertThat(TaskChecks.maxRetry(SPEC, "any")).isEqualTo(5);
        assertThat(TaskChecks.maxRetry(SPEC, "nope")).isEqualTo(3);
        JobSpec noMin = SPEC.withMinAvailable(null);
        assertThat(TaskChecks.minAvailable(noMin)).isEqualTo(5);
    }
}
