package io.lahar.core.scheduling.plugins;

import static io.lahar.core.scheduling.Fixtures.key;
import static io.lahar.core.scheduling.Fixtures.nodes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lahar.core.api.PodGroupPhase;
import io.lahar.core.scheduling.Fixtures;
import io.lahar.core.scheduling.api.JobInfo;
import io.lahar.core.scheduling.api.QueueInfo;
import io.lahar.core.scheduling.api.Snapshot;
import io.lahar.core.scheduling.api.TaskInfo;
import io.lahar.core.scheduling.api.TaskStatus;
import io.lahar.core.scheduling.framework.InvalidConfException;
import io.lahar.core.scheduling.framework.PluginRegistry;
import io.lahar.core.scheduling.framework.Scheduler;
import io.lahar.core.scheduling.framework.SchedulerConf;
import io.lahar.core.scheduling.framework.Session;
import io.lahar.core.scheduling.framework.SessionResult;
import io.lahar.core.scheduling.framework.SessionTask;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The cdp plugin after Volcano's cdp_test.go: {@code Test_CooldownTimePlugin_podPreemptStableTime}
 * (a valid cooldown-time is enabled, one that is no duration is not) and {@code TestPreemptableFn}
 * (of three running pods, the one still in its cooldown is no victim); then the preempt and reclaim
 * actions spare a pod only while its cooldown lasts.
 */
class CdpTest {

    static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");
    static final String COOLDOWN = "volcano.sh/cooldown-time";

    static Stream<Arguments> podPreemptStableTime() {
        return Stream.of(
                Arguments.of("normal", "600s", true, Duration.ofSeconds(600)),
                Arguments.of("not-enabled", "600abcde", false, Duration.ZERO));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("podPreemptStableTime")
    void asVolcanosCooldownTable(String name, String value, boolean wantEnabled, Duration wantValue) {
        var got = Cdp.cooldownTimeOf(Map.of(), Map.of(COOLDOWN, value));
        assertThat(got.isPresent()).isEqualTo(wantEnabled);
        assertThat(got.orElse(Duration.ZERO)).isEqualTo(wantValue);
    }

    @Test
    void theLabelComesBeforeTheAnnotationAndNeitherMeansNone() {
        assertThat(Cdp.cooldownTimeOf(Map.of(COOLDOWN, "1m"), Map.of(COOLDOWN, "1h")))
                .contains(Duration.ofMinutes(1));
        assertThat(Cdp.cooldownTimeOf(Map.of(COOLDOWN, "soon"), Map.of(COOLDOWN, "1h")))
                .isEmpty();
        assertThat(Cdp.cooldownTimeOf(Map.of(), Map.of())).isEmpty();
        assertThat(Cdp.cooldownTimeProblem(Map.of(), Map.of(COOLDOWN, "600abcde")))
                .contains("not a duration (e.g. 1h2m3s): \"600abcde\"");
        assertThat(Cdp.cooldownTimeProblem(Map.of(), Map.of(COOLDOWN, "600s"))).isEmpty();
    }

    /** A running pod as Volcano's makePod makes it: scheduled at {@code scheduled}, its cooldown from the annotation. */
    static TaskInfo pod(String name, String cooldown, Instant scheduled) {
        return TaskInfo.builder(name)
                .role("worker")
                .resreq(Map.of("cpu", "1", "memory", "1Gi"))
                .on("n0", TaskStatus.Running)
                .cooldownTime(
                        Cdp.cooldownTimeOf(Map.of(), Map.of(COOLDOWN, cooldown)).orElse(null))
                .scheduledTime(scheduled)
                .build();
    }

    static SchedulerConf cdpOnly() {
        return SchedulerConf.parse("""
                actions: "preempt"
                tiers:
                - plugins:
                  - name: cdp
                    enabledPreemptable: true
                """);
    }

    static List<String> preemptable(JobInfo job, Instant now) {
        Session ssn = Session.open(
                cdpOnly(),
                new Snapshot(nodes(1, "8", "8Gi"), List.of(), List.of(job)).at(now),
                PluginRegistry.defaults());
        List<SessionTask> candidates = ssn.job(job.key()).tasks();
        return ssn.preemptable(candidates.get(0), candidates).stream()
                .map(SessionTask::name)
                .toList();
    }

    @Test
    void preemptableFnAsVolcanos() {
        JobInfo job = JobInfo.builder("test-group")
                .phase(PodGroupPhase.Running)
                .task(pod("task1", "600s", NOW.minusSeconds(100)))
                .task(pod("task2", "600abcde", NOW.minusSeconds(100)))
                .task(pod("task3", "600s", NOW.minusSeconds(800)))
                .build();
        assertThat(preemptable(job, NOW)).containsExactly("task2", "task3");
    }

    @Test
    void onlyARunningPodWithAKnownScheduledTimeIsProtectedAndWithoutATimeTheCooldownLasts() {
        JobInfo job = JobInfo.builder("j")
                .phase(PodGroupPhase.Running)
                .task(pod("cooling", "10m", NOW.minusSeconds(60)))
                .task(TaskInfo.builder("bound")
                        .on("n0", TaskStatus.Bound)
                        .cooldownTime(Duration.ofMinutes(10))
                        .scheduledTime(NOW.minusSeconds(60))
                        .build())
                .task(TaskInfo.builder("unknown-time")
                        .on("n0", TaskStatus.Running)
                        .cooldownTime(Duration.ofMinutes(10))
                        .build())
                .task(pod("just-ended", "10m", NOW.minus(Duration.ofMinutes(10))))
                .build();
        assertThat(preemptable(job, NOW)).containsExactly("bound", "unknown-time", "just-ended");
        assertThat(preemptable(job, null)).containsExactly("bound", "unknown-time");
    }

    @Test
    void takesNoArguments() {
        assertThatThrownBy(() -> SchedulerConf.parse("""
                        actions: "preempt"
                        tiers:
                        - plugins:
                          - name: cdp
                            arguments: {cdp.cooldown: 1m}
                        """))
                .isInstanceOf(InvalidConfException.class)
                .hasMessageContaining("cdp.cooldown");
    }

    static final Instant STARTED = Instant.parse("2026-01-01T11:00:00Z");

    /** Volcano's default tiers with cdp beside priority, gang and conformance. */
    /**
     * The default tiers with cdp in the first, and the second tier's victim functions off (drf's
     * preemptable, proportion's reclaimable), as Volcano's Helm chart does for drf: a first tier
     * left without victims by cdp would otherwise leave them to the second, which knows no cooldown.
     */
    static SchedulerConf withCdp(String actions) {
        return SchedulerConf.parse(SchedulerConf.DEFAULT_YAML
                .replace("enqueue, allocate, backfill", actions)
                .replace("  - name: conformance\n", "  - name: conformance\n  - name: cdp\n")
                .replace("  - name: drf\n", "  - name: drf\n    enablePreemptable: false\n")
                .replace("  - name: proportion\n", "  - name: proportion\n    enableReclaimable: false\n"));
    }

    /** Four running one-cpu pods of a low-priority job, scheduled at STARTED with a 10m cooldown. */
    static JobInfo low(String queue) {
        JobInfo j = Fixtures.running("low", queue, 1, "1", "n0", "n0", "n1", "n1");
        return j.with(
                j.phase(),
                j.tasks().stream()
                        .map(t -> t.withCooldown(Duration.ofMinutes(10), STARTED))
                        .toList());
    }

    static JobInfo pending(String name, String queue, int priority) {
        return JobInfo.builder(name)
                .queue(queue)
                .priority(priority)
                .tasks("worker", 2, Map.of("cpu", "1", "memory", "1Gi"))
                .phase(PodGroupPhase.Inqueue)
                .creationIndex(2)
                .build();
    }

    static SessionResult run(String actions, List<QueueInfo> queues, List<JobInfo> jobs, Instant now) {
        return new Scheduler(withCdp(actions)).schedule(new Snapshot(nodes(2, "2", "8Gi"), queues, jobs).at(now));
    }

    @Test
    void preemptSparesACooledDownPodOnlyWhileItsCooldownLasts() {
        List<JobInfo> jobs = List.of(low("default"), pending("high", "default", 100));
        String actions = "enqueue, allocate, backfill, preempt";

        SessionResult during = run(actions, List.of(), jobs, STARTED.plus(Duration.ofMinutes(9)));
        assertThat(during.evictions()).isEmpty();
        assertThat(during.nominations()).isEmpty();

        SessionResult after = run(actions, List.of(), jobs, STARTED.plus(Duration.ofMinutes(11)));
        assertThat(after.evictions()).hasSize(2).allSatisfy(e -> {
            assertThat(e.job()).isEqualTo(key("low"));
            assertThat(e.action()).isEqualTo("preempt");
        });
    }

    @Test
    void reclaimSparesACooledDownPodOnlyWhileItsCooldownLasts() {
        List<JobInfo> jobs = new ArrayList<>(List.of(low("a"), pending("b", "b", 0)));
        List<QueueInfo> queues = List.of(QueueInfo.of("a", 1), QueueInfo.of("b", 1));
        String actions = "enqueue, allocate, backfill, reclaim";

        SessionResult during = run(actions, queues, jobs, STARTED.plus(Duration.ofMinutes(9)));
        assertThat(during.evictions()).isEmpty();
        assertThat(during.nominations()).isEmpty();

        SessionResult after = run(actions, queues, jobs, STARTED.plus(Duration.ofMinutes(11)));
        assertThat(after.evictions()).hasSize(2).allSatisfy(e -> {
            assertThat(e.job()).isEqualTo(key("low"));
            assertThat(e.action()).isEqualTo("reclaim");
        });
    }

    @Test
    void withoutCdpTheSamePodsAreVictimsDuringTheirCooldown() {
        SessionResult r = new Scheduler(SchedulerConf.parse(SchedulerConf.DEFAULT_YAML.replace(
                        "enqueue, allocate, backfill", "enqueue, allocate, backfill, preempt")))
                .schedule(new Snapshot(
                                nodes(2, "2", "8Gi"),
                                List.of(),
                                List.of(low("default"), pending("high", "default", 100)))
                        .at(STARTED.plus(Duration.ofMinutes(1))));
        assertThat(r.evictions()).hasSize(2);
    }
}
