package io.lahar.bridge.mapping;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MirrorsTest {

    @Test
    void theSpecDigestDoesNotDependOnKeyOrderOrNumberTypes() {
        Map<String, Object> a = new LinkedHashMap<>();
        a.put("minAvailable", 1);
        a.put("tasks", List.of(Map.of("name", "w", "replicas", 2)));
        Map<String, Object> b = new LinkedHashMap<>();
        b.put("tasks", List.of(Map.of("replicas", 2L, "name", "w")));
        b.put("minAvailable", 1L);

        assertThat(Mirrors.specHash(a)).isEqualTo(Mirrors.specHash(b));
        assertThat(Mirrors.specHash(a)).isNotEqualTo(Mirrors.specHash(Map.of("minAvailable", 2)));
    }

    @Test
    void onlyAMirrorWhoseSpecIsTheOneTheBridgeWroteIsTheBridgesOwn() {
        Map<String, Object> spec = Map.of("weight", 2);
        GenericKubernetesResource cr =
                cr(Map.of(Mirrors.MIRROR_OF, "uid-1", Mirrors.SPEC_HASH, Mirrors.specHash(spec)));
        cr.setAdditionalProperty("spec", spec);
        assertThat(Mirrors.isMirror(cr)).isTrue();
        assertThat(Mirrors.writtenByBridge(cr)).isTrue();
        assertThat(Mirrors.engineUid(cr)).isEqualTo("uid-1");

        cr.setAdditionalProperty("spec", Map.of("weight", 3));
        assertThat(Mirrors.writtenByBridge(cr)).as("edited by someone else").isFalse();

        GenericKubernetesResource users = cr(Map.of());
        users.setAdditionalProperty("spec", spec);
        assertThat(Mirrors.isMirror(users)).isFalse();
        assertThat(Mirrors.writtenByBridge(users)).isFalse();
        assertThat(Mirrors.engineUid(users))
                .as("the engine takes a CR's own UID")
                .isEqualTo("cr-uid");
    }

    @Test
    void aCommandFromAMirroredCrCarriesNoneOfTheMirrorsMarks() {
        GenericKubernetesResource cr = cr(Map.of(Mirrors.MIRROR_OF, "uid-1", Mirrors.SPEC_HASH, "abc", "keep", "me"));
        cr.setAdditionalProperty("spec", Map.of("tasks", List.of()));

        String manifest = VolcanoCrs.manifest(cr);

        assertThat(manifest).contains("\"keep\":\"me\"").doesNotContain(Mirrors.MIRROR_OF, Mirrors.SPEC_HASH);
    }

    private static GenericKubernetesResource cr(Map<String, String> annotations) {
        GenericKubernetesResource cr = new GenericKubernetesResource();
        ObjectMeta meta = new ObjectMeta();
        meta.setName("j");
        meta.setNamespace("default");
        meta.setUid("cr-uid");
        meta.setAnnotations(new LinkedHashMap<>(annotations));
        cr.setMetadata(meta);
        return cr;
    }
}
