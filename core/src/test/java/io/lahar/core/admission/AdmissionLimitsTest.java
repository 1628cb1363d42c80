package io.lahar.core.admission;

import static io.lahar.core.admission.Fixtures.assertAccepted;
import static io.lahar.core.admission.Fixtures.assertRejected;
import static io.lahar.core.admission.Fixtures.job;
import static io.lahar.core.admission.Fixtures.messages;
import static io.lahar.core.admission.Fixtures.task;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lahar.core.api.Job;
import io.lahar.core.api.JobFlow;
import io.lahar.core.api.JobTemplate;
import io.lahar.core.api.Manifest;
import io.lahar.core.api.Manifests;
import io.lahar.core.api.ObjectMeta;
import io.lahar.core.api.PodGroup;
import io.lahar.core.api.TaskSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** Users' numbers are hostile: every count the engine allocates from is bounded before it does. */
class AdmissionLimitsTest {

    static final AdmissionContext FRESH = AdmissionContext.freshInstall();

    @Nested
    class Replicas {

        @Test
        void theLargestIntIsOverThePodLimit() {
            AdmissionResult<Job> r = JobAdmission.create(job("tasks:\n" + task("worker", Integer.MAX_VALUE)), FRESH);
            assertRejected(
                    r,
                    "spec.tasks[0].replicas: must be no more than 5000, the limit of pods per job (was 2147483647)",
                    "spec.tasks: the tasks' replicas sum to 2147483647 pods, over the limit of 5000 pods per job");
        }

        @Test
        void replicasWhoseIntSumWrapsAreSummedExactly() {
            // 2^31-1 + 2^31-1 + 4 is 4 as an int: the sum must not wrap into an admitted job.
            AdmissionResult<Job> r = JobAdmission.create(
                    job("tasks:\n" + task("a", Integer.MAX_VALUE) + task("b", Integer.MAX_VALUE) + task("c", 4)),
                    FRESH);
            assertRejected(
                    r,
                    "spec.tasks[0].replicas: must be no more than 5000, the limit of pods per job (was 2147483647)",
                    "spec.tasks[1].replicas: must be no more than 5000, the limit of pods per job (was 2147483647)",
                    "spec.tasks: the tasks' replicas sum to 4294967298 pods, over the limit of 5000 pods per job");
        }

        @Test
        void eachTaskWithinTheLimitButTheirSumOver() {
            assertRejected(
                    JobAdmission.create(job("tasks:\n" + task("a", 3000) + task("b", 2001)), FRESH),
                    "spec.tasks: the tasks' replicas sum to 5001 pods, over the limit of 5000 pods per job");
            assertAccepted(JobAdmission.create(job("tasks:\n" + task("a", 3000) + task("b", 2000)), FRESH));
        }

        @Test
        void manyTasksAtTheCeilingDoNotWrapTheSum() {
            // 21,475 tasks of 100,000 replicas: 2,147,500,000 pods, past Integer.MAX_VALUE by 16,353.
            AdmissionContext ctx = FRESH.withLimits(new AdmissionLimits(AdmissionLimits.CEILING_MAX_PODS_PER_JOB));
            ObjectNode template = (ObjectNode) Manifests.jsonMapper()
                    .valueToTree(
                            Map.of("spec", Map.of("containers", List.of(Map.of("name", "c", "image", "busybox")))));
            List<TaskSpec> tasks = new ArrayList<>();
            for (int i = 0; i < 21_475; i++) {
                tasks.add(new TaskSpec("t" + i, 100_000, null, template, null, null, null, null, null));
            }
            Job base = job("tasks:\n" + task("x", 1));
            AdmissionResult<Job> r =
                    JobAdmission.create(base.withSpec(base.spec().withTasks(tasks)), ctx);
            assertThat(messages(r))
                    .containsExactly(
                            "spec.tasks: the tasks' replicas sum to 2147500000 pods, over the limit of 100000 pods per job");
        }

        @Test
        void theLimitIsTheContexts() {
            AdmissionContext small = FRESH.withLimits(new AdmissionLimits(10));
            assertRejected(
                    JobAdmission.create(job("tasks:\n" + task("a", 11)), small),
                    "spec.tasks[0].replicas: must be no more than 10, the limit of pods per job (was 11)");
            assertAccepted(JobAdmission.create(job("tasks:\n" + task("a", 6) + task("b", 4)), small));
        }

        @Test
        void theLimitIsBetweenOneAndKubernetesIndexedJobCeiling() {
            assertThatThrownBy(() -> new AdmissionLimits(0)).hasMessageContaining("between 1 and 100000");
            assertThatThrownBy(() -> new AdmissionLimits(100_001)).hasMessageContaining("between 1 and 100000");
            assertThat(new AdmissionLimits(100_000).maxPodsPerJob()).isEqualTo(100_000);
        }

        @Test
        void defaultedMinAvailableDoesNotWrapEither() {
            // The job's minAvailable defaults to the tasks' sum: an int sum would be negative here.
            AdmissionResult<Job> r = JobAdmission.create(
                    job("tasks:\n" + task("a", Integer.MAX_VALUE) + task("b", Integer.MAX_VALUE)), FRESH);
            assertThat(messages(r)).noneMatch(m -> m.startsWith("spec.minAvailable"));
        }

        @Test
        void minPartitionsTimesSizeDoesNotWrap() {
            AdmissionResult<Job> r = JobAdmission.create(job("""
                    tasks:
                    - name: a
                      replicas: 4
                      partitionPolicy:
                        totalPartitions: 2
                        partitionSize: 2
                        minPartitions: 2000000000
                      template:
                        spec:
                          containers:
                          - name: c
                            image: busybox
                    """), FRESH);
            assertThat(r.accepted()).isFalse();
            assertThat(messages(r))
                    .contains("spec.tasks[0].partitionPolicy.minPartitions: must be between 0 and totalPartitions");
        }
    }

    @Nested
    class Updates {

        final Job old = assertAccepted(JobAdmission.create(job("tasks:\n" + task("a", 2) + task("b", 2)), FRESH));

        @Test
        void scalingPastTheLimitIsRefused() {
            Job scaled = job("tasks:\n" + task("a", Integer.MAX_VALUE) + task("b", Integer.MAX_VALUE));
            assertRejected(
                    JobAdmission.update(old, scaled, FRESH),
                    "spec.tasks[0].replicas: must be no more than 5000, the limit of pods per job (was 2147483647)",
                    "spec.tasks: the tasks' replicas sum to 4294967294 pods, over the limit of 5000 pods per job");
        }

        @Test
        void scalingWithinTheLimitIsFine() {
            Job scaled = job("tasks:\n" + task("a", 2500) + task("b", 2500));
            assertThat(assertAccepted(JobAdmission.update(old, scaled, FRESH))
                            .spec()
                            .totalReplicas())
                    .isEqualTo(5000);
        }
    }

    @Nested
    class TemplatesAndFlows {

        @Test
        void aTemplateIsAJobSpecWithTheSameLimits() {
            JobTemplate t = Fixtures.template("big", "tasks:\n" + task("a", 6000));
            assertRejected(
                    JobTemplateAdmission.create(t, FRESH),
                    "spec.tasks[0].replicas: must be no more than 5000, the limit of pods per job (was 6000)");
        }

        @Test
        void aPatchMayNotAskForMorePods() {
            JobFlow flow = Fixtures.flow("f", """
                    flows:
                    - name: a
                      patch:
                        spec:
                          tasks:
                          - name: worker
                            replicas: 2147483647
                    """);
            assertRejected(
                    JobFlowAdmission.create(flow, FRESH),
                    "spec.flows[0].patch.spec.tasks[0].replicas: must be no more than 5000, the limit of pods per job (was 2147483647)");
        }

        @Test
        void aPatchedTemplateKnownToAdmissionIsCheckedAsTheJobItMakes() {
            JobTemplate t = assertAccepted(JobTemplateAdmission.create(
                    Fixtures.template("a", "tasks:\n" + task("worker", 3000) + task("ps", 1)), FRESH));
            JobFlow flow = Fixtures.flow("f", """
                    flows:
                    - name: a
                      patch:
                        spec:
                          tasks:
                          - name: ps
                            replicas: 2001
                    """);
            AdmissionResult<JobFlow> r = JobFlowAdmission.create(flow, FRESH.with(t));
            assertThat(messages(r))
                    .containsExactly(
                            "spec.flows[0]: the job \"f-a\" made from JobTemplate \"a\" with this patch"
                                    + " is invalid: spec.tasks: the tasks' replicas sum to 5001 pods, over the limit of 5000 pods per job");
            // Without the template in sight, only the patch's own numbers are checked.
            assertAccepted(JobFlowAdmission.create(flow, FRESH));
        }
    }

    @Nested
    class PodGroups {

        PodGroup group(Integer minMember, Map<String, Integer> minTaskMember) {
            return new PodGroup(
                    PodGroup.API_VERSION,
                    PodGroup.KIND,
                    ObjectMeta.named("pg"),
                    new PodGroup.PodGroupSpec(minMember, minTaskMember, null, null, null, null, null),
                    null);
        }

        @Test
        void minMemberAndMinTaskMemberWithinThePodLimit() {
            AdmissionResult<Manifest> r =
                    Admission.create(group(Integer.MAX_VALUE, Map.of("a", Integer.MAX_VALUE)), FRESH);
            assertRejected(
                    r,
                    "spec.minMember: must be no more than 5000, the limit of pods per job (was 2147483647)",
                    "spec.minTaskMember.a: must be no more than 5000, the limit of pods per job (was 2147483647)");
            assertRejected(
                    Admission.create(group(4, new java.util.TreeMap<>(Map.of("a", 3000, "b", 3000))), FRESH),
                    "spec.minTaskMember: the tasks' minimum members sum to 6000 pods, over the limit of 5000 pods per job");
            assertRejected(
                    PodGroupAdmission.update(group(4, null), group(6000, null), FRESH),
                    "spec.minMember: must be no more than 5000, the limit of pods per job (was 6000)");
            assertAccepted(Admission.create(group(5000, Map.of("a", 5000)), FRESH));
        }
    }

    @Nested
    class Answers {

        @Test
        void aMessageQuotingALongValueIsCut() {
            String name = "x".repeat(5000);
            String message = JobAdmission.create(job("tasks:\n" + task(name, 1)), FRESH)
                    .violations()
                    .getFirst()
                    .message();
            assertThat(message)
                    .startsWith("invalid task name \"xxxx")
                    .matches("(?s).{1024}\\.\\.\\. \\(\\d+ more characters\\)");
            assertThat(new Violation("p", "y".repeat(1030)).message())
                    .isEqualTo("y".repeat(1024) + "... (6 more characters)");
        }

        @Test
        void thousandsOfViolationsAreCountedPastTheFirstHundred() {
            StringBuilder tasks = new StringBuilder("tasks:\n");
            for (int i = 0; i < 300; i++) {
                tasks.append(task("Bad" + i, 1));
            }
            AdmissionResult<Job> r = JobAdmission.create(job(tasks.toString()), FRESH);
            assertThat(r.violations()).hasSize(AdmissionResult.MAX_VIOLATIONS + 1);
            assertThat(r.violations().getLast().toString()).matches(": \\.\\.\\. and \\d+ more violations");
        }
    }

    @Nested
    class Annotations {

        @Test
        void keysAreQualifiedNamesAndAllOfThemTogetherAtMost256KiB() {
            Job bad = job("tasks:\n" + task("a", 1));
            Map<String, String> annotations = new java.util.LinkedHashMap<>();
            annotations.put("example.com/note", "x".repeat(AdmissionLimits.ANNOTATIONS_MAX_BYTES));
            annotations.put("bad key", "v");
            bad = bad.withMetadata(
                    new ObjectMeta("j", null, null, null, null, null, null, null, null, annotations, null, null));
            assertRejected(
                    JobAdmission.create(bad, FRESH),
                    "metadata.annotations: must have at most 262144 bytes, keys and values together (was 262168)");
            assertThat(messages(JobAdmission.create(bad, FRESH)))
                    .anyMatch(m -> m.startsWith("metadata.annotations: invalid annotation key \"bad key\""));
        }

        @Test
        void thePodTemplatesToo() {
            AdmissionResult<Job> r = JobAdmission.create(
                    job("""
                    tasks:
                    - name: a
                      replicas: 1
                      template:
                        metadata:
                          annotations:
                            example.com/big: "%s"
                        spec:
                          containers:
                          - name: c
                            image: busybox
                    """.formatted("é".repeat(AdmissionLimits.ANNOTATIONS_MAX_BYTES / 2))), FRESH);
            // Two bytes of UTF-8 each: the limit is in bytes, as Kubernetes counts it.
            assertRejected(
                    r,
                    "spec.tasks[0].template.metadata.annotations: must have at most 262144 bytes, keys and"
                            + " values together (was 262159)");
        }
    }
}
