package io.lahar.bridge;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.lahar.bridge.reconcile.StalledAnswers;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * The bridge's Kubernetes client, in place of Quarkus' own: the same configuration (kubeconfig,
 * in-cluster or {@code quarkus.kubernetes-client.*}) and serialization, with {@link StalledAnswers}
 * on its HTTP client, so that no answer whose body stalls holds one of the bridge's calls for good.
 */
@Singleton
public class BridgeKubernetesClient {

    @Produces
    @Singleton
    KubernetesClient kubernetesClient(KubernetesSerialization serialization, Config config) {
        return build(serialization, config);
    }

    void close(@Disposes KubernetesClient client) {
        client.close();
    }

    static KubernetesClient build(KubernetesSerialization serialization, Config config) {
        return new KubernetesClientBuilder()
                .withKubernetesSerialization(serialization)
                .withConfig(config)
                .withHttpClientBuilderConsumer(http -> StalledAnswers.install(http, config))
                .build();
    }
}
