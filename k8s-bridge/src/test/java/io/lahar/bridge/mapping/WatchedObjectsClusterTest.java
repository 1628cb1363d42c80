package io.lahar.bridge.mapping;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.lahar.emulator.EmbeddedCluster;
import io.lahar.emulator.NodeSpec;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** Watch events of a cluster read by a client whose mapper is the service's ({@link KubernetesJson#fast}). */
class WatchedObjectsClusterTest {

    @Test
    void anInformerOfTheServicesMapperSeesThePodsTheClusterHas() {
        try (EmbeddedCluster cluster = EmbeddedCluster.start(
                        EmbeddedCluster.Options.defaults().withNodes(NodeSpec.parse("1x{cpu=4,memory=8Gi}")));
                KubernetesClient client = clientOf(cluster)) {
            List<Pod> added = new CopyOnWriteArrayList<>();
            List<Pod> deleted = new CopyOnWriteArrayList<>();
            var informer = client.pods().inNamespace("default").inform(new ResourceEventHandler<>() {
                @Override
                public void onAdd(Pod pod) {
                    added.add(pod);
                }

                @Override
                public void onUpdate(Pod old, Pod pod) {}

                @Override
                public void onDelete(Pod pod, boolean finalStateUnknown) {
                    deleted.add(pod);
                }
            });
            try {
                Pod made = cluster.client()
                        .pods()
                        .inNamespace("default")
                        .resource(KubernetesJson.SERIALIZATION.unmarshal("""
                                {"metadata":{"name":"watched","labels":{"app":"x"}},
                                 "spec":{"containers":[{"name":"c","image":"busybox"}]}}""", Pod.class))
                        .create();
                await().atMost(Duration.ofSeconds(20)).until(() -> !added.isEmpty());
                Pod seen = added.get(0);
                assertThat(seen.getMetadata().getUid())
                        .isEqualTo(made.getMetadata().getUid());
                assertThat(seen.getMetadata().getLabels()).containsEntry("app", "x");
                assertThat(seen.getSpec().getContainers())
                        .singleElement()
                        .satisfies(c -> assertThat(c.getImage()).isEqualTo("busybox"));

                cluster.client()
                        .pods()
                        .inNamespace("default")
                        .withName("watched")
                        .delete();
                await().atMost(Duration.ofSeconds(20)).until(() -> !deleted.isEmpty());
                assertThat(deleted.get(0).getMetadata().getUid())
                        .isEqualTo(made.getMetadata().getUid());
            } finally {
                informer.close();
            }
        }
    }

    private static KubernetesClient clientOf(EmbeddedCluster cluster) {
        ObjectMapper mapper = new ObjectMapper();
        KubernetesSerialization serialization = new KubernetesSerialization(mapper, true);
        KubernetesJson.fast(mapper);
        return new KubernetesClientBuilder()
                .withConfig(cluster.client().getConfiguration())
                .withKubernetesSerialization(serialization)
                .build();
    }
}
