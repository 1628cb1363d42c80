package io.lahar.core.admission;

import static io.lahar.core.admission.Fixtures.assertAccepted;
import static io.lahar.core.admission.Fixtures.assertRejected;
import static io.lahar.core.admission.Fixtures.messages;
import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.api.Manifests;
import io.lahar.core.api.PodGroup;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A PodGroup another operator made: the rules of its spec, not those of its queue. */
class PodGroupAdmissionTest {

    private static AdmissionResult<PodGroup> otherWorkload(String spec) {
        Manifests.Reading reading = Manifests.readWithWarnings(
                "apiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\nmetadata: {name: pg, namespace: ns}\n"
                        + "spec: " + spec + "\n");
        return PodGroupAdmission.otherWorkload(
                (PodGroup) reading.manifest(), reading.unknownFields(), AdmissionLimits.DEFAULTS);
    }

    @Test
    void theQueueIsDefaultedButNotLookedUp() {
        assertThat(assertAccepted(otherWorkload("{minMember: 2}")).spec().queue())
                .isEqualTo("default");
        assertThat(assertAccepted(otherWorkload("{minMember: 2, queue: nope}"))
                        .spec()
                        .queue())
                .as("a queue that does not exist is the scheduler's Unschedulable verdict, not a refusal")
                .isEqualTo("nope");
        assertRejected(
                PodGroupAdmission.create(
                        Manifests.read(
                                "apiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\n"
                                        + "metadata: {name: pg}\nspec: {minMember: 2, queue: nope}\n",
                                PodGroup.class),
                        AdmissionContext.freshInstall()),
                "spec.queue: queue \"nope\" not found");
    }

    @Test
    void aDisruptionBudgetTheSchedulerCouldNotCarryOutIsRefused() {
        Manifests.Reading reading = Manifests.readWithWarnings(
                "apiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\nmetadata: {name: pg, namespace: ns,"
                        + " annotations: {volcano.sh/jdb-max-unavailable: \"-1\"}}\nspec: {minMember: 1}\n");
        assertRejected(
                PodGroupAdmission.otherWorkload(
                        (PodGroup) reading.manifest(), reading.unknownFields(), AdmissionLimits.DEFAULTS),
                "metadata.annotations.volcano.sh/jdb-max-unavailable: must be a positive integer, got \"-1\"");
    }

    @Test
    void everyViolationOfTheSpecIsRefusedWithItsPath() {
        int max = AdmissionLimits.DEFAULTS.maxPodsPerJob();
        AdmissionResult<PodGroup> r = otherWorkload("{minMember: -1, minTaskMember: {driver: 100000},"
                + " minResources: {cpu: lots}, networkTopology: {mode: hard, highestTierAllowed: 1},"
                + " subGroupPolicy: [{subGroupSize: 0}]}");

        assertThat(messages(r))
                .containsExactly(
                        "spec.minMember: must be >= 0",
                        "spec.minTaskMember.driver: must be no more than " + max
                                + ", the limit of pods per job (was 100000)",
                        "spec.minTaskMember: the tasks' minimum members sum to 100000 pods, over the limit of " + max
                                + " pods per job",
                        "spec.minResources.cpu: " + messageOfBadQuantity(),
                        "spec.networkTopology: " + JobSpecValidation.NO_HYPERNODES,
                        "spec.subGroupPolicy[0].name: required",
                        "spec.subGroupPolicy[0].subGroupSize: must be at least 1, got 0");
    }

    @Test
    void aFieldTheSchedulerDoesNotKnowIsRefusedNotDropped() {
        AdmissionResult<PodGroup> r = otherWorkload("{minMember: 2, subGroupPolicy: [{name: a, subGroupSize: 2,"
                + " networkTopology: {mode: soft}, labelSelector: {matchExpressions: [{key: k, operator: Exists}]}}]}");

        assertThat(r.accepted()).isFalse();
        assertThat(r.violations())
                .extracting(Violation::path)
                .containsExactly(
                        "spec.subGroupPolicy[0].labelSelector.matchExpressions",
                        "spec.subGroupPolicy[0].networkTopology");
        assertThat(r.violations()).allSatisfy(v -> assertThat(v.message()).contains("not a field"));
    }

    /** What QueueAdmission says of a quantity that does not parse, so the test does not restate it. */
    private static String messageOfBadQuantity() {
        Violations v = new Violations();
        QueueAdmission.quantities(java.util.Map.of("cpu", "lots"), "spec.minResources", v);
        List<Violation> list = v.list();
        assertThat(list).hasSize(1);
        return list.get(0).message();
    }
}
