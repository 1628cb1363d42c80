package io.lahar.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

class MergePatchTest {

    @Test
    void followsRfc7386() {
        JsonNode target = CrudStore.parse("{\"a\":\"b\",\"c\":{\"d\":\"e\",\"f\":\"g\"},\"l\":[1,2]}");
        JsonNode patch = CrudStore.parse("{\"a\":\"z\",\"c\":{\"f\":null},\"l\":[3],\"n\":{\"x\":1}}");

        assertThat(MergePatch.apply(target, patch))
                .isEqualTo(CrudStore.parse("{\"a\":\"z\",\"c\":{\"d\":\"e\"},\"l\":[3],\"n\":{\"x\":1}}"));
    }

    @Test
    void dropsStrategicMergeDirectives() {
        JsonNode target = CrudStore.parse("{\"metadata\":{\"labels\":{\"a\":\"1\"}}}");
        JsonNode patch = CrudStore.parse(
                "{\"metadata\":{\"$retainKeys\":[\"labels\"],\"labels\":{\"b\":\"2\"}},\"$setElementOrder/x\":[]}");

        assertThat(MergePatch.apply(target, patch))
                .isEqualTo(CrudStore.parse("{\"metadata\":{\"labels\":{\"a\":\"1\",\"b\":\"2\"}}}"));
    }

    @Test
    void doesNotChangeItsInputs() {
        JsonNode target = CrudStore.parse("{\"a\":{\"b\":1}}");
        MergePatch.apply(target, CrudStore.parse("{\"a\":{\"b\":null}}"));

        assertThat(target).isEqualTo(CrudStore.parse("{\"a\":{\"b\":1}}"));
    }
}
