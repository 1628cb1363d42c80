package io.lahar.core.scheduling.plugins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lahar.core.api.PodGroupPhase;
import io.lahar.core.scheduling.api.JobInfo;
import io.lahar.core.scheduling.api.NodeInfo;
import io.lahar.core.scheduling.api.Problem;
import io.lahar.core.scheduling.api.Snapshot;
import io.lahar.core.scheduling.framework.InvalidConfException;
import io.lahar.core.scheduling.framework.PluginRegistry;
import io.lahar.core.scheduling.framework.Scheduler;
import io.lahar.core.scheduling.framework.SchedulerConf;
import io.lahar.core.scheduling.framework.Session;
import io.lahar.core.scheduling.framework.SessionResult;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The sla plugin after Volcano's {@code TestSlaPlugin} (pkg/scheduler/plugins/sla/sla_test.go):
 * job1 without a waiting time of its own, job2 with one hour, both created at the same time; with
 * {@code sla-waiting-time: 3m} job1 orders first and may enqueue. Volcano logs and ignores a
 * waiting time that is not a duration string ("sla error type placement", {@code 1}); here it is a
 * configuration problem with its path.
 */
class SlaTest {

    static final Instant CREATED = Instant.parse("2026-01-01T00:00:00Z");

    static JobInfo job(String name, Duration own) {
        return JobInfo.builder(name)
                .creationTime(CREATED)
                .slaWaitingTime(own)
                .phase(PodGroupPhase.Pending)
                .tasks("ps", 2, Map.of("cpu", "1"))
                .build();
    }

    static SchedulerConf conf(String arguments) {
        return SchedulerConf.parse("""
                actions: "enqueue"
                tiers:
                - plugins:
                  - name: sla
                    arguments: {%s}
                """.formatted(arguments));
    }

    static Stream<Arguments> testSlaPlugin() {
        return Stream.of(
                Arguments.of("sla normal placement", "sla-waiting-time: 3m", true, true),
                Arguments.of("none placement", "", false, true));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("testSlaPlugin")
    void asVolcanosTable(String name, String arguments, boolean expectedOrder, boolean expectedEnqueueable) {
        Snapshot s = new Snapshot(List.of(), List.of(), List.of(job("job1", null), job("job2", Duration.ofHours(1))))
                .at(CREATED.plus(Duration.ofHours(2)));
        Session ssn = Session.open(conf(arguments), s, PluginRegistry.defaults());
        assertThat(ssn.compareJobs(ssn.job("default/job1"), ssn.job("default/job2")) < 0)
                .isEqualTo(expectedOrder);
        assertThat(ssn.jobEnqueueable(ssn.job("default/job1")).value() >= 0).isEqualTo(expectedEnqueueable);
    }

    @Test
    void aWaitingTimeThatIsNotADurationIsAConfProblem() {
        assertThatThrownBy(() -> conf("sla-waiting-time: 1"))
                .isInstanceOfSatisfying(
                        InvalidConfException.class,
                        e -> assertThat(e.problems())
                                .extracting(Problem::path)
                                .containsExactly("tiers[0].plugins[0].arguments"))
                .hasMessageContaining("sla-waiting-time: not a duration");
        assertThatThrownBy(() -> conf("sla-waiting-time: -5m")).hasMessageContaining("must be positive");
    }

    /**
     * A job that has waited its SLA is enqueued although overcommit (a later tier) would refuse it:
     * sla permits in the first tier, and Volcano's JobEnqueueable takes the first tier that permits.
     */
    @Test
    void aJobPastItsWaitingTimeIsEnqueuedPastTheLaterTiersGates() {
        SchedulerConf conf = SchedulerConf.parse("""
                actions: "enqueue"
                tiers:
                - plugins:
                  - name: sla
                    arguments: {sla-waiting-time: 30m}
                - plugins:
                  - name: overcommit
                """);
        NodeInfo small = NodeInfo.builder("n").allocatable(Map.of("cpu", "1")).build();
        JobInfo big = JobInfo.builder("big")
                .creationTime(CREATED)
                .phase(PodGroupPhase.Pending)
                .tasks("w", 4, Map.of("cpu", "1"))
                .build();
        Snapshot early = new Snapshot(List.of(small), List.of(), List.of(big)).at(CREATED.plus(Duration.ofMinutes(10)));
        assertThat(new Scheduler(conf).schedule(early).phaseOf("default/big", PodGroupPhase.Pending))
                .isEqualTo(PodGroupPhase.Pending);
        Snapshot late = early.at(CREATED.plus(Duration.ofMinutes(31)));
        SessionResult r = new Scheduler(conf).schedule(late);
        assertThat(r.phaseOf("default/big", PodGroupPhase.Pending)).isEqualTo(PodGroupPhase.Inqueue);
        // Without a time the wait cannot be measured: no job is past its SLA.
        assertThat(new Scheduler(conf)
                        .schedule(new Snapshot(List.of(small), List.of(), List.of(big)))
                        .phaseOf("default/big", PodGroupPhase.Pending))
                .isEqualTo(PodGroupPhase.Pending);
    }

    /** The nearest deadline first: a job's own annotation counts before the plugin's argument. */
    @Test
    void theNearestDeadlineGoesFirst() {
        SchedulerConf conf = SchedulerConf.parse("""
                actions: "enqueue, allocate"
                tiers:
                - plugins:
                  - name: sla
                    arguments: {sla-waiting-time: 1h}
                  - name: gang
                - plugins:
                  - name: predicates
                """);
        NodeInfo one = NodeInfo.builder("n").allocatable(Map.of("cpu", "1")).build();
        JobInfo older = JobInfo.builder("older")
                .creationIndex(0)
                .creationTime(CREATED)
                .phase(PodGroupPhase.Inqueue)
                .tasks("w", 1, Map.of("cpu", "1"))
                .build();
        JobInfo urgent = JobInfo.builder("urgent")
                .creationIndex(1)
                .creationTime(CREATED.plus(Duration.ofMinutes(5)))
                .slaWaitingTime(Duration.ofMinutes(10))
                .phase(PodGroupPhase.Inqueue)
                .tasks("w", 1, Map.of("cpu", "1"))
                .build();
        SessionResult r =
                new Scheduler(conf).schedule(new Snapshot(List.of(one), List.of(), List.of(older, urgent)).at(CREATED));
        assertThat(r.bindings())
                .singleElement()
                .satisfies(b -> assertThat(b.job()).isEqualTo("default/urgent"));
    }
}
