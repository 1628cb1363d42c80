package io.lahar.emulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The cluster started again on its data directory has what it had, and its kubelet carries on. */
class EmbeddedClusterRestartTest {

    private static final ResourceDefinitionContext VCJOBS = new ResourceDefinitionContext.Builder()
            .withGroup("batch.volcano.sh")
            .withVersion("v1alpha1")
            .withPlural("jobs")
            .withKind("Job")
            .withNamespaced(true)
            .build();

    @TempDir
    Path data;

    @Test
    void everyObjectIsThereAfterARestartOnTheSameDataDirectory() {
        Pod running;
        long versionBefore;
        try (EmbeddedCluster cluster = start(NodeSpec.parse("2x{cpu=8,memory=32Gi}"))) {
            KubernetesClient client = cluster.client();
            client.pods()
                    .inNamespace("default")
                    .resource(pod("runs", "1h", "node-1"))
                    .create();
            client.pods()
                    .inNamespace("default")
                    .resource(pod("goes", "1h", "node-0"))
                    .create();
            client.genericKubernetesResources(VCJOBS)
                    .inNamespace("default")
                    .resource(job("tf"))
                    .create();
            client.pods()
                    .inNamespace("default")
                    .withName("runs")
                    .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"labels\":{\"kept\":\"yes\"}}}");
            client.pods().inNamespace("default").withName("goes").delete();
            await().atMost(Duration.ofSeconds(15))
                    .until(() -> phase(client, "runs").equals("Running"));
            running = client.pods().inNamespace("default").withName("runs").get();
            versionBefore = Long.parseLong(running.getMetadata().getResourceVersion());
        }

        // Other nodes asked for: a directory that holds objects keeps its own.
        try (EmbeddedCluster cluster = start(NodeSpec.parse("5x{name=other,cpu=1,memory=1Gi}"))) {
            KubernetesClient client = cluster.client();
            Pod restored = client.pods().inNamespace("default").withName("runs").get();
            assertThat(restored.getMetadata().getUid())
                    .isEqualTo(running.getMetadata().getUid());
            assertThat(restored.getMetadata().getResourceVersion())
                    .isEqualTo(running.getMetadata().getResourceVersion());
            assertThat(restored.getMetadata().getLabels()).containsEntry("kept", "yes");
            assertThat(restored.getStatus().getPhase()).isEqualTo("Running");
            assertThat(restored.getStatus().getStartTime())
                    .isEqualTo(running.getStatus().getStartTime());
            assertThat(client.pods().inNamespace("default").withName("goes").get())
                    .isNull();
            assertThat(client.genericKubernetesResources(VCJOBS)
                            .inNamespace("default")
                            .withName("tf")
                            .get())
                    .isNotNull();
            assertThat(client.nodes().list().getItems())
                    .extracting(n -> n.getMetadata().getName())
                    .containsExactlyInAnyOrder("node-0", "node-1");
            assertThat(client.genericKubernetesResources(EmbeddedCluster.QUEUES)
                            .list()
                            .getItems())
                    .extracting(q -> q.getMetadata().getName())
                    .containsExactly("default");

            Pod changed = client.pods()
                    .inNamespace("default")
                    .withName("runs")
                    .edit(p -> new PodBuilder(p)
                            .editMetadata()
                            .addToLabels("after", "restart")
                            .endMetadata()
                            .build());
            assertThat(Long.parseLong(changed.getMetadata().getResourceVersion()))
                    .isGreaterThan(versionBefore);
        }
    }

    @Test
    void aPodRunningWhenTheEmulatorStoppedEndsOnItsTimeAfterTheRestart() throws InterruptedException {
        Instant started;
        try (EmbeddedCluster cluster = start(NodeSpec.parse("1x{cpu=8,memory=32Gi}"))) {
            KubernetesClient client = cluster.client();
            client.pods()
                    .inNamespace("default")
                    .resource(pod("long", "20s", "node-0"))
                    .create();
            await().atMost(Duration.ofSeconds(15))
                    .until(() -> phase(client, "long").equals("Running"));
            started = Instant.parse(client.pods()
                    .inNamespace("default")
                    .withName("long")
                    .get()
                    .getStatus()
                    .getStartTime());
        }
        // Down for half its run: counted from the restart it would end ten seconds late.
        Thread.sleep(Math.max(
                0, Duration.between(Instant.now(), started.plusSeconds(10)).toMillis()));

        try (EmbeddedCluster cluster = start(NodeSpec.parse("1x{cpu=8,memory=32Gi}"))) {
            KubernetesClient client = cluster.client();
            assertThat(phase(client, "long")).isEqualTo("Running");
            await().atMost(Duration.ofSeconds(40))
                    .until(() -> phase(client, "long").equals("Succeeded"));
            Pod done = client.pods().inNamespace("default").withName("long").get();
            Instant finished = Instant.parse(done.getStatus()
                    .getContainerStatuses()
                    .get(0)
                    .getState()
                    .getTerminated()
                    .getFinishedAt());
            // Timestamps are whole seconds; the upper bound leaves room for a slow restart.
            assertThat(Duration.between(started, finished)).isBetween(Duration.ofSeconds(19), Duration.ofSeconds(27));
        }
    }

    /**
     * What changed while a client's watch was away cannot be told again after a restart (the store
     * keeps no history of changes, and a deletion is not an object the restarted store could send):
     * a watch that resumes from a version of before the restart is answered 410 Gone, so an
     * informer lists again, and a pod deleted meanwhile is deleted in its cache too.
     */
    @Test
    void anInformerResumingAfterARestartListsAgainAndHearsOfADeletionItMissed() throws Exception {
        int port;
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        EmbeddedCluster.Options options = EmbeddedCluster.Options.defaults()
                .withPort(port)
                .withNodes(NodeSpec.parse("1x{cpu=8,memory=32Gi}"))
                .withDataDir(data);
        List<String> deleted = new java.util.concurrent.CopyOnWriteArrayList<>();
        EmbeddedCluster cluster = EmbeddedCluster.start(options);
        try (KubernetesClient client = cluster.newClient()) {
            client.pods()
                    .inNamespace("default")
                    .resource(pod("stays", "1h", ""))
                    .create();
            client.pods().inNamespace("default").resource(pod("goes", "1h", "")).create();
            var informer = client.pods().inNamespace("default").inform(new ResourceEventHandler<>() {
                @Override
                public void onAdd(Pod pod) {}

                @Override
                public void onUpdate(Pod old, Pod pod) {}

                @Override
                public void onDelete(Pod pod, boolean finalStateUnknown) {
                    deleted.add(pod.getMetadata().getName());
                }
            });
            await().atMost(Duration.ofSeconds(15))
                    .until(() -> informer.getStore().list().size() == 2);
            cluster.close();
            // Meanwhile, on the same data, an emulator the informer cannot reach deletes a pod.
            try (EmbeddedCluster elsewhere = EmbeddedCluster.start(options.withPort(0))) {
                elsewhere
                        .client()
                        .pods()
                        .inNamespace("default")
                        .withName("goes")
                        .delete();
            }
            cluster = EmbeddedCluster.start(options);

            await().atMost(Duration.ofSeconds(60)).until(() -> deleted.contains("goes"));
            assertThat(informer.getStore().list())
                    .extracting(p -> p.getMetadata().getName())
                    .containsExactly("stays");
            informer.close();
        } finally {
            cluster.close();
        }
    }

    @Test
    void aSecondEmulatorOnTheSameDirectoryIsRefused() {
        try (EmbeddedCluster first = start(NodeSpec.parse("1x{cpu=8,memory=32Gi}"))) {
            assertThatThrownBy(() -> start(NodeSpec.parse("1x{cpu=8,memory=32Gi}")))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage(data + " is in use by another kube-emulator");
            assertThat(first.client().nodes().list().getItems()).hasSize(1);
        }
    }

    private EmbeddedCluster start(List<NodeSpec> nodes) {
        return EmbeddedCluster.start(
                EmbeddedCluster.Options.defaults().withNodes(nodes).withDataDir(data));
    }

    private static String phase(KubernetesClient client, String name) {
        Pod pod = client.pods().inNamespace("default").withName(name).get();
        return pod == null || pod.getStatus() == null || pod.getStatus().getPhase() == null
                ? "Pending"
                : pod.getStatus().getPhase();
    }

    private static Pod pod(String name, String duration, String node) {
        return new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace("default")
                .withAnnotations(Map.of(PodRunPlan.DURATION, duration))
                .endMetadata()
                .withNewSpec()
                .withNodeName(node)
                .addNewContainer()
                .withName("main")
                .withImage("busybox")
                .endContainer()
                .endSpec()
                .build();
    }

    static GenericKubernetesResource job(String name) {
        return new GenericKubernetesResourceBuilder()
                .withApiVersion("batch.volcano.sh/v1alpha1")
                .withKind("Job")
                .withNewMetadata()
                .withName(name)
                .withNamespace("default")
                .endMetadata()
                .addToAdditionalProperties("spec", Map.of("minAvailable", 1))
                .build();
    }
}
