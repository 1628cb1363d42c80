package io.lahar.bridge;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.lahar.bridge.mapping.BridgeLabels;
import io.lahar.bridge.mapping.Pods;
import io.lahar.emulator.EmbeddedCluster;
import io.lahar.emulator.NodeSpec;
import io.lahar.schema.Bind;
import io.lahar.schema.JobCommand;
import io.lahar.schema.KafkaClients;
import io.lahar.schema.SchedulerDecision;
import io.lahar.schema.Topics;
import io.lahar.schema.serde.RegistrySerdes;
import io.lahar.testkit.LaharInfra;
import io.lahar.testkit.WithLaharInfra;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * Work that waits in the bridge's memory survives a restart of the bridge: a create waiting for
 * the previous version's pod to go, and a bind waiting for that create, are read again by the next
 * bridge of the same group and carried out; and the records re-read after them do not resurrect a
 * pod the engine deleted.
 */
@WithLaharInfra
class BridgeRestartIT {

    /** Past the registry client's idle timeout: an answer the registry loses once is asked again within it. */
    private static final Duration WAIT = RegistrySerdes.IDLE_TIMEOUT.plusSeconds(30);

    @Test
    void waitingCreatesAndBindsSurviveARestartAndNothingIsResurrected(LaharInfra infra) throws Exception {
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        String ns = "restart-it-" + suffix;
        String job = "rs-" + suffix;
        String key = Topics.jobKey(ns, job);
        String group = "restart-it-" + suffix;
        String template = """
                {"metadata":{"annotations":{"lahar.io/sim-duration":"300s"}},
                 "spec":{"containers":[{"name":"main","image":"busybox"}]}}""";
        String restarted = job + "-worker-0";
        String deleted = job + "-worker-1";
        String marker = job + "-worker-2";
        try (BridgeKafka kafka = new BridgeKafka(
                        infra, suffix, Map.of(Topics.JOB_COMMANDS.name(), JobCommand.class), key::equals);
                EmbeddedCluster cluster = EmbeddedCluster.start(
                        EmbeddedCluster.Options.defaults().withNodes(NodeSpec.parse("2x{cpu=8,memory=32Gi}")))) {
            KubernetesClient client = cluster.client();
            Bridge.Settings settings = new Bridge.Settings(
                    KafkaClients.plaintext(infra.bootstrapServers()),
                    infra.registryUrl(),
                    null,
                    group,
                    false,
                    Optional.of(ns),
                    false,
                    Set.of(BridgeLabels.DEFAULT_SCHEDULER));

            try (Bridge first = Bridge.start(client, settings, Clock.systemUTC())) {
                // The job's first version runs worker-0; the engine restarts the job: worker-0 of
                // version 2 must wait for the old pod to go, and so must its bind.
                kafka.send(Topics.POD_INTENTS.name(), key, TestIntents.create(ns, job, "worker", 0, 1, template));
                assertThat(kafka.pollUntil(WAIT, () -> version(client, ns, restarted) == 1))
                        .isTrue();
                kafka.send(Topics.POD_INTENTS.name(), key, TestIntents.create(ns, job, "worker", 0, 2, template));
                kafka.send(Topics.SCHEDULER_DECISIONS.name(), key, bind(ns, job, restarted, "node-1", 2));
                // Behind them, in the same partition: a pod created and deleted again, then a marker.
                kafka.send(Topics.POD_INTENTS.name(), key, TestIntents.create(ns, job, "worker", 1, 2, template));
                kafka.send(Topics.POD_INTENTS.name(), key, TestIntents.delete(ns, job, deleted, 2));
                kafka.send(Topics.POD_INTENTS.name(), key, TestIntents.create(ns, job, "worker", 2, 2, template));
                assertThat(kafka.pollUntil(
                                WAIT,
                                () -> client.pods()
                                                .inNamespace(ns)
                                                .withName(marker)
                                                .get()
                                        != null))
                        .isTrue();
                assertThat(client.pods().inNamespace(ns).withName(deleted).get())
                        .isNull();
                assertThat(version(client, ns, restarted)).isEqualTo(1);
            }

            // While no bridge runs, the old pod finally goes.
            client.pods().inNamespace(ns).withName(restarted).delete();
            assertThat(kafka.pollUntil(
                            WAIT,
                            () -> client.pods()
                                            .inNamespace(ns)
                                            .withName(restarted)
                                            .get()
                                    == null))
                    .isTrue();
            client.pods().inNamespace(ns).withName(marker).delete();

            List<String> added = new CopyOnWriteArrayList<>();
            try (Watch watch = client.pods().inNamespace(ns).watch(new Watcher<>() {
                        @Override
                        public void eventReceived(Action action, Pod pod) {
                            if (action == Action.ADDED) {
                                added.add(pod.getMetadata().getName());
                            }
                        }

                        @Override
                        public void onClose(WatcherException cause) {}
                    });
                    Bridge second = Bridge.start(client, settings, Clock.systemUTC())) {
                // The waiting create and bind are read again and carried out.
                assertThat(kafka.pollUntil(WAIT, () -> {
                            Pod pod = client.pods()
                                    .inNamespace(ns)
                                    .withName(restarted)
                                    .get();
                            return pod != null
                                    && Pods.jobVersion(pod) == 2
                                    && pod.getSpec().getNodeName() != null;
                        }))
                        .isTrue();
                assertThat(client.pods()
                                .inNamespace(ns)
                                .withName(restarted)
                                .get()
                                .getSpec()
                                .getNodeName())
                        .isEqualTo("node-1");
                // Everything behind them is re-read too: the marker comes back (it was deleted
                // outside the engine), the pod the engine deleted does not, not even for a moment.
                assertThat(kafka.pollUntil(
                                WAIT,
                                () -> client.pods()
                                                .inNamespace(ns)
                                                .withName(marker)
                                                .get()
                                        != null))
                        .isTrue();
                assertThat(added).contains(restarted, marker).doesNotContain(deleted);
                assertThat(second.isRunning()).isTrue();
            }
        }
    }

    private static int version(KubernetesClient client, String ns, String pod) {
        Pod found = client.pods().inNamespace(ns).withName(pod).get();
        return found == null ? -1 : Pods.jobVersion(found);
    }

    private static SchedulerDecision bind(String ns, String job, String pod, String node, int version) {
        return SchedulerDecision.newBuilder()
                .setNamespace(ns)
                .setJob(job)
                .setPodGroup(job)
                .setEpoch(1)
                .setTime(TestIntents.T0)
                .setDecision(Bind.newBuilder()
                        .setPod(pod)
                        .setNode(node)
                        .setAction("allocate")
                        .setJobVersion(version)
                        .build())
                .build();
    }
}
