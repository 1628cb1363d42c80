package io.lahar.bridge;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.lahar.bridge.mapping.KubernetesJson;
import io.quarkus.kubernetes.client.KubernetesClientObjectMapperCustomizer;
import jakarta.inject.Singleton;

/** The Kubernetes client's JSON is {@link KubernetesJson}'s: every request, response and watch event. */
@Singleton
public class KubernetesClientJson implements KubernetesClientObjectMapperCustomizer {

    @Override
    public void customize(ObjectMapper mapper) {
        KubernetesJson.fast(mapper);
    }
}
