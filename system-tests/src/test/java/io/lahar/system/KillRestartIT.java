package io.lahar.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lahar.cli.ReplayCommand;
import io.lahar.cli.replay.InputLog;
import io.lahar.schema.JobTransition;
import io.lahar.testkit.ServiceProcess;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 3, point 8: SIGKILL the streams-app while jobs run, start it again with an empty state
 * dir (its stores come back from the changelogs), let the jobs finish; then, per job, the
 * transitions on lahar.job-transitions equal what {@code lahar replay} computes from the input
 * topics, record for record: with exactly_once_v2 no transition is lost and none is duplicated,
 * although the killed instance died in the middle of its work.
 */
@ExtendWith(LaharSystemExtension.class)
class KillRestartIT {

    /** The streams-app's lahar.clock.max-step (its default), which replay must use too. */
    static final long MAX_CLOCK_STEP = 60_000;

    static final Duration TIMEOUT = Duration.ofSeconds(120);

    @Test
    void afterAKillAndARestartFromTheChangelogsEveryJobsTransitionsEqualTheReplay(LaharSystem system) {
        List<String> jobs = List.of(
                job(system, "crash-a", 2, "5s"), job(system, "crash-b", 3, "8s"), job(system, "crash-c", 1, "12s"));
        // Every job has started; the shortest may already have finished, the longest has not.
        await().atMost(TIMEOUT)
                .pollInterval(Duration.ofMillis(200))
                .until(() -> jobs.stream()
                        .allMatch(j -> system.records.transitions(system.key(j)).stream()
                                .anyMatch(t -> t.getTo().equals("Running"))));
        assertThat(system.records.phase(system.key("crash-c")))
                .as("the longest job when the streams-app is killed")
                .isEqualTo("Running");

        ServiceProcess crashed = system.streamsApp();
        crashed.kill();
        assertThat(crashed.isAlive()).isFalse();
        system.startStreamsApp(system.newStateDir()).awaitReady(LaharSystem.READY_TIMEOUT);

        for (String job : jobs) {
            JobsOnSimulatedNodesIT.awaitPhase(system, system.key(job), "Completed", TIMEOUT);
        }
        for (String job : jobs) {
            String key = system.key(job);
            List<JobTransition> live = system.records.transitions(key);
            InputLog.Log log = InputLog.read(
                    io.lahar.schema.KafkaSettings.plaintext(system.infra.bootstrapServers()),
                    new io.lahar.schema.serde.RegistrySerdes(system.infra.registryUrl()),
                    key,
                    Duration.ofSeconds(30));
            List<JobTransition> replayed = ReplayCommand.transitions(
                    ReplayCommand.replay(system.namespace, job, MAX_CLOCK_STEP, log.queues(), log.inputs()));
            assertThat(live)
                    .as(key + " on lahar.job-transitions")
                    .extracting(JobTransition::getTo)
                    .startsWith("Pending")
                    .contains("Running")
                    .endsWith("Completed");
            assertThat(live).as(key + ": live equals replay").containsExactlyElementsOf(replayed);
        }
    }

    private static String job(LaharSystem system, String name, int replicas, String duration) {
        return system.submit(system.simJob(name, replicas, duration));
    }
}
