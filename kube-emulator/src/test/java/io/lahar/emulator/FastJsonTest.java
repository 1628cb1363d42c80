package io.lahar.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

class FastJsonTest {

    private static final String JOB = """
            {"apiVersion":"batch.volcano.sh/v1alpha1","kind":"Job","metadata":{"name":"tf","namespace":"default",
            "labels":{"a":"b"},"resourceVersion":"3","creationTimestamp":"2026-12-05T07:00:00Z"},
            "spec":{"minAvailable":2,"tasks":[{"name":"ps","replicas":1,"template":{"spec":{"containers":
            [{"name":"c","image":"i","resources":{"requests":{"cpu":"500m"}}}]}}}]},"status":{"state":{"phase":"Running"}}}
            """;

    @Test
    void theStoresMapperWritesWhatPlainFabric8WritesOnceInstalledTwice() {
        FastJson.install();
        FastJson.install();
        assertThat(Serialization.jsonMapper().getRegisteredModuleIds())
                .filteredOn(id -> id.toString().contains("Blackbird"))
                .hasSize(1);
        KubernetesSerialization plain = new KubernetesSerialization();
        GenericKubernetesResource fast = Serialization.unmarshal(JOB, GenericKubernetesResource.class);
        assertThat(fast).isEqualTo(plain.unmarshal(JOB, GenericKubernetesResource.class));
        assertThat(Serialization.asJson(fast)).isEqualTo(plain.asJson(fast));
    }
}
