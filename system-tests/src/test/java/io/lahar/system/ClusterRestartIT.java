package io.lahar.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.lahar.schema.JobTransition;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * SIGKILL of the kube-emulator, then of the k8s-bridge, each started again as bin/start's supervisor
 * does, while jobs run: the emulator comes back with every pod it had (same uids) and its kubelet
 * carries on; the bridge re-lists the cluster, reports what exists and carries out what it had not
 * yet done; every job reaches a final phase — Completed, since none of them may fail — without a
 * restart of its own (no pod was lost).
 */
@ExtendWith(LaharSystemExtension.class)
class ClusterRestartIT {

    static final Duration TIMEOUT = Duration.ofSeconds(240);

    @Test
    void afterAKillOfTheEmulatorAndThenOfTheBridgeEveryRunningJobCompletes(LaharSystem system) {
        long began = System.nanoTime();
        List<String> running = IntStream.range(0, 6)
                .mapToObj(i -> system.submit(system.simJob("restart-a" + i, 2, "30s")))
                .toList();
        await().atMost(TIMEOUT)
                .pollInterval(Duration.ofMillis(200))
                .until(() -> running.stream()
                        .allMatch(j -> system.records.phase(system.key(j)).equals("Running")));
        long jobsRunning = System.nanoTime();
        Map<String, String> pods = pods(system);
        assertThat(pods).hasSize(12);

        system.killAndRestartEmulator();
        assertThat(pods(system))
                .as("the pods after the emulator's restart, by uid")
                .containsAllEntriesOf(pods);
        long emulatorBack = System.nanoTime();

        // Their pods still to be created and bound when the bridge dies.
        List<String> waiting = IntStream.range(0, 4)
                .mapToObj(i -> system.submit(system.simJob("restart-b" + i, 2, "5s")))
                .toList();
        system.killAndRestartBridge();
        long bridgeBack = System.nanoTime();

        List<String> jobs = new ArrayList<>(running);
        jobs.addAll(waiting);
        for (String job : jobs) {
            JobsOnSimulatedNodesIT.awaitPhase(system, system.key(job), "Completed", TIMEOUT);
        }
        for (String job : jobs) {
            assertThat(system.records.transitions(system.key(job)))
                    .as(job + " on lahar.job-transitions")
                    .extracting(JobTransition::getTo)
                    .startsWith("Pending")
                    .contains("Running")
                    .endsWith("Completed")
                    .doesNotContain("Restarting", "Aborting", "Failed", "Terminating");
        }
        System.out.printf(
                "ClusterRestartIT: jobs running after %.0f s, emulator back after %.0f s, bridge after %.0f s,"
                        + " all %d jobs Completed after %.0f s%n",
                seconds(began, jobsRunning),
                seconds(began, emulatorBack),
                seconds(began, bridgeBack),
                jobs.size(),
                seconds(began, System.nanoTime()));
    }

    /** The first jobs' pods in the cluster: name → uid (the namespace is shared with other tests). */
    private static Map<String, String> pods(LaharSystem system) {
        return system.kube().pods().inNamespace(system.namespace).list().getItems().stream()
                .filter(p -> p.getMetadata().getName().startsWith("restart-a"))
                .collect(Collectors.toMap(
                        p -> p.getMetadata().getName(),
                        (Pod p) -> p.getMetadata().getUid()));
    }

    private static double seconds(long from, long to) {
        return (to - from) / 1e9;
    }
}
