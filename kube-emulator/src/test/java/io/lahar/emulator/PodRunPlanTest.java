package io.lahar.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PodRunPlanTest {

    @Test
    void theDurationAnnotationWinsOverSleep() {
        PodRunPlan plan = PodRunPlan.of(pod(Map.of(PodRunPlan.DURATION, "1m30s"), List.of("sleep", "5")));

        assertThat(plan.duration()).contains(Duration.ofSeconds(90));
        assertThat(plan.exitCode()).isZero();
        assertThat(plan.problems()).isEmpty();
    }

    @Test
    void goDurationsAndBareSeconds() {
        assertThat(PodRunPlan.parseDuration("10s")).contains(Duration.ofSeconds(10));
        assertThat(PodRunPlan.parseDuration("500ms")).contains(Duration.ofMillis(500));
        assertThat(PodRunPlan.parseDuration("1h2m3.5s")).contains(Duration.ofMillis(3_723_500));
        assertThat(PodRunPlan.parseDuration("7")).contains(Duration.ofSeconds(7));
        assertThat(PodRunPlan.parseDuration("2.5")).contains(Duration.ofMillis(2500));
        assertThat(PodRunPlan.parseDuration("ten seconds")).isEmpty();
        assertThat(PodRunPlan.parseDuration("10 s")).isEmpty();
    }

    @Test
    void durationsAreReadAsKubernetesReadsThem() {
        assertThat(PodRunPlan.parseDuration(".5s")).contains(Duration.ofMillis(500));
        assertThat(PodRunPlan.parseDuration("1.s")).contains(Duration.ofSeconds(1));
        assertThat(PodRunPlan.parseDuration("300\u00b5s")).contains(Duration.ofNanos(300_000)); // micro sign
        assertThat(PodRunPlan.parseDuration("300\u03bcs")).contains(Duration.ofNanos(300_000)); // Greek mu
        assertThat(PodRunPlan.parseDuration("+2s")).contains(Duration.ofSeconds(2));
        assertThat(PodRunPlan.parseDuration("0")).contains(Duration.ZERO);
    }

    @Test
    void aNegativeDurationIsReportedAndTheSleepsApply() {
        PodRunPlan plan = PodRunPlan.of(pod(Map.of(PodRunPlan.DURATION, "-5s"), List.of("sleep", "3")));

        assertThat(plan.duration()).contains(Duration.ofSeconds(3));
        assertThat(plan.problems()).containsExactly("metadata.annotations[lahar.io/sim-duration]: \"-5s\" is negative");
    }

    @Test
    void sleepInTheShellCommandGivesTheDuration() {
        assertThat(PodRunPlan.of(pod(Map.of(), List.of("sh", "-c", "echo hi; sleep 2 && echo done")))
                        .duration())
                .contains(Duration.ofSeconds(2));
        assertThat(PodRunPlan.of(pod(Map.of(), List.of("sleep", "3s"))).duration())
                .contains(Duration.ofSeconds(3));
        assertThat(PodRunPlan.of(pod(Map.of(), List.of("sh", "-c", "sleep 1m; sleep 5")))
                        .duration())
                .contains(Duration.ofSeconds(65));
    }

    @Test
    void sleepMustBeAWordOfItsOwn() {
        assertThat(PodRunPlan.of(pod(Map.of(), List.of("nosleep", "5"))).duration())
                .isEmpty();
        assertThat(PodRunPlan.of(pod(Map.of(), List.of("sleep", "infinity"))).duration())
                .isEmpty();
    }

    @Test
    void thePodRunsAsLongAsItsLongestContainerAndForeverIfOneHasNoEnd() {
        Pod twoSleeps = new PodBuilder(pod(Map.of(), List.of("sleep", "2")))
                .editSpec()
                .addNewContainer()
                .withName("side")
                .withCommand("sleep", "4")
                .endContainer()
                .endSpec()
                .build();
        assertThat(PodRunPlan.of(twoSleeps).duration()).contains(Duration.ofSeconds(4));

        Pod withServer = new PodBuilder(pod(Map.of(), List.of("sleep", "2")))
                .editSpec()
                .addNewContainer()
                .withName("server")
                .withCommand("nginx")
                .endContainer()
                .endSpec()
                .build();
        assertThat(PodRunPlan.of(withServer).duration()).isEmpty();
    }

    @Test
    void noAnnotationAndNoSleepMeansRunUntilDeleted() {
        assertThat(PodRunPlan.of(pod(Map.of(), List.of("nginx"))).duration()).isEqualTo(Optional.empty());
    }

    @Test
    void theExitCodeAnnotationMakesThePodFail() {
        PodRunPlan plan = PodRunPlan.of(pod(Map.of(PodRunPlan.EXIT_CODE, "137"), List.of("sleep", "1")));

        assertThat(plan.exitCode()).isEqualTo(137);
        assertThat(plan.succeeds()).isFalse();
    }

    @Test
    void malformedAnnotationsAreReportedWithTheirFieldAndIgnored() {
        PodRunPlan plan = PodRunPlan.of(
                pod(Map.of(PodRunPlan.DURATION, "soon", PodRunPlan.EXIT_CODE, "300"), List.of("sleep", "4")));

        assertThat(plan.duration()).contains(Duration.ofSeconds(4));
        assertThat(plan.exitCode()).isZero();
        assertThat(plan.problems())
                .containsExactlyInAnyOrder(
                        "metadata.annotations[lahar.io/sim-duration]: \"soon\" is not a duration (e.g. 10s, 1m30s, 500ms)",
                        "metadata.annotations[lahar.io/sim-exit-code]: 300 is not an exit code (0..255)");
    }

    @Test
    void perVersionExitCodesFailOnlyTheFirstRunAndTheLastValueAppliesToLaterVersions() {
        Map<String, String> firstFails = Map.of(PodRunPlan.EXIT_CODES, "1, 0");

        assertThat(PodRunPlan.of(pod(withVersion(firstFails, "0"), List.of("sleep", "1")))
                        .exitCode())
                .isEqualTo(1);
        assertThat(PodRunPlan.of(pod(withVersion(firstFails, "1"), List.of("sleep", "1")))
                        .exitCode())
                .isZero();
        assertThat(PodRunPlan.of(pod(withVersion(firstFails, "7"), List.of("sleep", "1")))
                        .exitCode())
                .isZero();
        // No version annotation: a pod the engine did not create counts as version 0.
        assertThat(PodRunPlan.of(pod(firstFails, List.of("sleep", "1"))).exitCode())
                .isEqualTo(1);
    }

    @Test
    void perVersionExitCodesWinOverTheSingleExitCode() {
        Map<String, String> both = withVersion(Map.of(PodRunPlan.EXIT_CODES, "3,2", PodRunPlan.EXIT_CODE, "9"), "1");

        PodRunPlan plan = PodRunPlan.of(pod(both, List.of("sleep", "1")));

        assertThat(plan.exitCode()).isEqualTo(2);
        assertThat(plan.problems()).isEmpty();
    }

    @Test
    void aMalformedPerVersionListIsReportedPerEntryAndFallsBackToTheSingleExitCode() {
        Map<String, String> bad =
                withVersion(Map.of(PodRunPlan.EXIT_CODES, "1,x,256", PodRunPlan.EXIT_CODE, "4"), "v2");

        PodRunPlan plan = PodRunPlan.of(pod(bad, List.of("sleep", "1")));

        assertThat(plan.exitCode()).isEqualTo(4);
        assertThat(plan.problems())
                .containsExactlyInAnyOrder(
                        "metadata.annotations[volcano.sh/job-version]: \"v2\" is not a job version; 0 assumed",
                        "metadata.annotations[lahar.io/sim-exit-codes][1]: \"x\" is not a whole number",
                        "metadata.annotations[lahar.io/sim-exit-codes][2]: 256 is not an exit code (0..255)");
    }

    private static Map<String, String> withVersion(Map<String, String> annotations, String version) {
        Map<String, String> all = new java.util.HashMap<>(annotations);
        all.put(PodRunPlan.JOB_VERSION, version);
        return all;
    }

    static Pod pod(Map<String, String> annotations, List<String> command) {
        return new PodBuilder()
                .withNewMetadata()
                .withName("p")
                .withNamespace("default")
                .withAnnotations(annotations)
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("main")
                .withImage("busybox")
                .withCommand(command)
                .endContainer()
                .endSpec()
                .build();
    }
}
