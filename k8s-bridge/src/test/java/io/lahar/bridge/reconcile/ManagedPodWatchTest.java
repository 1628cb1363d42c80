package io.lahar.bridge.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.lahar.bridge.TestIntents;
import io.lahar.bridge.mapping.KubernetesJson;
import io.lahar.bridge.mapping.SshKeyPair;
import io.lahar.emulator.EmbeddedCluster;
import io.lahar.emulator.NodeSpec;
import io.lahar.schema.Bind;
import io.lahar.schema.PodEvent;
import io.lahar.schema.SchedulerDecision;
import io.lahar.schema.Topics;
import io.lahar.schema.WorkloadPod;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The pod watch reads its pods slim, over the client it is given; everything else done with that
 * client — a bind, a delete, a read, the workload watch of bare pods — still reads pods whole.
 */
class ManagedPodWatchTest {

    private static final String NS = "default";
    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    private static final Retry RETRY =
            new Retry(3, Duration.ofMillis(10), Duration.ofMillis(50), d -> Thread.sleep(d.toMillis()));

    @Test
    void theWatchsPodsAreSlimAndEveryOtherReadOfThemWhole() {
        try (EmbeddedCluster cluster = EmbeddedCluster.start(EmbeddedCluster.Options.defaults()
                        .withNodes(NodeSpec.parse("1x{cpu=8,memory=32Gi}"))
                        .withTimeScale(0.1));
                PriorityClassWatcher classes = new PriorityClassWatcher(
                                cluster.client(), new ListSink(), Clock.systemUTC(), 0, true)
                        .start()) {
            KubernetesClient client = cluster.client();
            ListSink sink = new ListSink();
            EngineDeletions deletions = new EngineDeletions();
            try (PodWatcher watch = new PodWatcher(
                                    client, sink, deletions, Clock.systemUTC(), 0, Optional.of(NS), new CreatedPods())
                            .start();
                    WorkloadWatcher workloads = new WorkloadWatcher(
                                    client,
                                    sink,
                                    RETRY,
                                    Clock.systemUTC(),
                                    0,
                                    Optional.of(NS),
                                    Set.of("volcano"),
                                    classes)
                            .start()) {
                PodIntentReconciler intents = new PodIntentReconciler(client, RETRY, deletions, SshKeyPair::generate);
                intents.apply(TestIntents.create(NS, "slim", "worker", 0, 1, TestIntents.template("sleep 600")));
                new DecisionReconciler(client, RETRY).apply(bind("slim-worker-0", "node-0"));

                await().atMost(TIMEOUT)
                        .until(() ->
                                events(sink).stream().anyMatch(e -> e.getPhase().equals("Running")));
                assertThat(events(sink).getLast().getNode()).isEqualTo("node-0");
                Pod watched = watch.watched().stream()
                        .filter(p -> p.getMetadata().getName().equals("slim-worker-0"))
                        .findFirst()
                        .orElseThrow();
                assertThat(watched.getSpec().getNodeName()).isEqualTo("node-0");
                assertThat(watched.getSpec().getContainers()).isEmpty();
                assertThat(watched.getStatus().getContainerStatuses())
                        .singleElement()
                        .satisfies(c -> assertThat(c.getName()).isEqualTo("main"));

                Pod read =
                        client.pods().inNamespace(NS).withName("slim-worker-0").get();
                assertThat(read.getSpec().getNodeName()).isEqualTo("node-0");
                assertThat(read.getSpec().getContainers())
                        .singleElement()
                        .satisfies(
                                c -> assertThat(c.getResources().getRequests()).containsKey("cpu"));
                assertThat(read.getMetadata().getOwnerReferences()).isNotNull();

                client.pods()
                        .inNamespace(NS)
                        .resource(KubernetesJson.SERIALIZATION.unmarshal("""
                                {"metadata":{"name":"bare"},"spec":{"schedulerName":"volcano",
                                 "containers":[{"name":"a","image":"busybox","resources":{"requests":{"cpu":"2"}}}]}}""", Pod.class))
                        .create();
                await().atMost(TIMEOUT)
                        .until(() -> !sink.values(Topics.WORKLOAD_PODS.name(), WorkloadPod.class)
                                .isEmpty());
                assertThat(sink.values(Topics.WORKLOAD_PODS.name(), WorkloadPod.class)
                                .getFirst()
                                .getSpec()
                                .getRequests())
                        .as("the workload watch reads the bare pod's spec")
                        .containsEntry("cpu", "2");

                intents.apply(TestIntents.delete(NS, "slim", "slim-worker-0", 1));
                await().atMost(TIMEOUT).until(() -> events(sink).getLast().getDeleted());
                assertThat(events(sink).getLast().getDeletedByOthers()).isFalse();
            }
        }
    }

    private static List<PodEvent> events(ListSink sink) {
        return sink.values(Topics.POD_EVENTS.name(), PodEvent.class);
    }

    private static SchedulerDecision bind(String pod, String node) {
        return SchedulerDecision.newBuilder()
                .setNamespace(NS)
                .setJob("slim")
                .setPodGroup("slim")
                .setEpoch(1)
                .setTime(TestIntents.T0)
                .setDecision(Bind.newBuilder()
                        .setPod(pod)
                        .setNode(node)
                        .setAction("allocate")
                        .setJobVersion(1)
                        .build())
                .build();
    }
}
