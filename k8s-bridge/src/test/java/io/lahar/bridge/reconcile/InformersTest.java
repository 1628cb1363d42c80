package io.lahar.bridge.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.lahar.emulator.EmbeddedCluster;
import io.lahar.emulator.NodeSpec;
import io.lahar.testkit.TcpProxy;
import java.net.URI;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** An API that fails an informer's first list: the bridge's informers list again; fabric8's own stop. */
class InformersTest {

    private static EmbeddedCluster cluster;
    private static TcpProxy proxy;
    private static KubernetesClient client;

    @BeforeAll
    static void start() {
        cluster = EmbeddedCluster.start(
                EmbeddedCluster.Options.defaults().withNodes(NodeSpec.parse("2x{cpu=4,memory=8Gi}")));
        URI api = URI.create(cluster.client().getConfiguration().getMasterUrl());
        proxy = TcpProxy.to(api.getHost(), api.getPort());
        client = new KubernetesClientBuilder()
                .withConfig(new ConfigBuilder(cluster.client().getConfiguration())
                        .withMasterUrl("https://" + api.getHost() + ":" + proxy.port())
                        .withRequestRetryBackoffLimit(0)
                        .build())
                .build();
    }

    @AfterAll
    static void stop() {
        client.close();
        proxy.close();
        cluster.close();
    }

    @Test
    void anInformerWhoseFirstListFailsListsAgainUntilTheApiAnswers() throws Exception {
        proxy.cut();
        CompletableFuture<SharedIndexInformer<Node>> started =
                CompletableFuture.supplyAsync(() -> Informers.inform(client.nodes(), null, 0));
        Thread.sleep(2_000);
        assertThat(started).as("still listing while the API is away").isNotDone();
        proxy.restore();
        try (SharedIndexInformer<Node> informer = started.get(60, TimeUnit.SECONDS)) {
            assertThat(informer.getStore().list()).hasSize(2);
        }
    }

    @Test
    void fabric8sOwnInformerStopsForGoodWhenItsFirstListFails() {
        proxy.cut();
        try {
            assertThatThrownBy(() -> client.nodes().inform()).isInstanceOf(RuntimeException.class);
        } finally {
            proxy.restore();
        }
    }

    @Test
    void whatEndsAStartedInformerStillEndsOne() {
        assertThat(Informers.retryAfter(false, new java.io.IOException("closed")))
                .isTrue();
        assertThat(Informers.retryAfter(true, new java.io.IOException("closed")))
                .isTrue();
        assertThat(Informers.retryAfter(true, new WatcherException("gone"))).isFalse();
    }
}
