package io.lahar.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A binding's path is read by hand as the expressions it was read with before read it. */
class PodBindingTest {

    private static final Pattern SUBRESOURCE = Pattern.compile("^/api/v1/namespaces/([^/]+)/pods/([^/]+)/binding/?$");
    private static final Pattern LEGACY = Pattern.compile("^/api/v1/namespaces/([^/]+)/bindings/?$");

    @ParameterizedTest
    @ValueSource(
            strings = {
                "/api/v1/namespaces/default/pods/p-1/binding",
                "/api/v1/namespaces/default/pods/p-1/binding/",
                "/api/v1/namespaces/default/pods/p-1/binding//",
                "/api/v1/namespaces/default/pods//binding",
                "/api/v1/namespaces/default/pods/binding",
                "/api/v1/namespaces/default/pods/a/b/binding",
                "/api/v1/namespaces/default/pods/p/bindings",
                "/api/v1/namespaces/default/pods/p/status",
                "/api/v1/namespaces/default/bindings",
                "/api/v1/namespaces/default/bindings/",
                "/api/v1/namespaces/default/bindings//",
                "/api/v1/namespaces//bindings",
                "/api/v1/namespaces/bindings",
                "/api/v1/namespaces/a/b/bindings",
                "/api/v1/namespaces/default/pods",
                "/api/v1/namespaces/",
                "/api/v1/namespaces",
                "/apis/x/v1/namespaces/default/bindings",
                "/api/v1/namespaces/a b/pods/p:q/binding",
            })
    void readsABindingsPathAsItsExpressionsDo(String path) {
        PodBinding.Target target = PodBinding.Target.of(path);
        Matcher sub = SUBRESOURCE.matcher(path);
        Matcher legacy = LEGACY.matcher(path);
        if (sub.matches()) {
            assertThat(target).isEqualTo(new PodBinding.Target(sub.group(1), sub.group(2)));
        } else if (legacy.matches()) {
            assertThat(target).isEqualTo(new PodBinding.Target(legacy.group(1), null));
        } else {
            assertThat(target).as(path).isNull();
        }
        assertThat(PodBinding.matches(path)).isEqualTo(target != null);
    }

    /**
     * The bound pod is the stored one with the node, the binding's annotations and PodScheduled
     * True, written as it was when the binding changed a copy of the whole pod; the version read
     * before, which a watcher may still hold, is not changed.
     */
    @Test
    void bindsAsOnACopyOfTheWholePodAndLeavesTheStoredVersionAsItWas() {
        Clock clock = Clock.fixed(Instant.parse("2026-12-05T10:00:00Z"), ZoneOffset.UTC);
        CrudStore store = new CrudStore(new IndexedCrudDispatcher(java.util.List.of()));
        String pod = "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"labels\":{\"a\":\"b\"},"
                + "\"annotations\":{\"x\":\"1\"}},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"i\"}]},"
                + "\"status\":{\"conditions\":[{\"type\":\"Ready\",\"status\":\"False\"},"
                + "{\"type\":\"PodScheduled\",\"status\":\"False\",\"reason\":\"Unschedulable\",\"message\":\"m\"}]}}";
        assertThat(store.dispatch(HttpMethod.POST, "/api/v1/namespaces/default/pods", "application/json", pod)
                        .code())
                .isEqualTo(201);
        JsonNode before = store.read("/api/v1/namespaces/default/pods/p").orElseThrow();
        String beforeJson = before.toString();

        var answer = new PodBinding(store, clock)
                .bind(
                        "/api/v1/namespaces/default/pods/p/binding",
                        "{\"apiVersion\":\"v1\",\"kind\":\"Binding\",\"metadata\":{\"name\":\"p\","
                                + "\"annotations\":{\"y\":\"2\"}},\"target\":{\"kind\":\"Node\",\"name\":\"node-0\"}}");

        assertThat(answer.code()).isEqualTo(201);
        assertThat(CrudStore.bodyOf(answer))
                .isEqualTo(
                        "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Success\",\"code\":201}");
        assertThat(before.toString()).isEqualTo(beforeJson);
        ObjectNode expected = before.deepCopy();
        ((ObjectNode) expected.get("spec")).put("nodeName", "node-0");
        ((ObjectNode) expected.get("metadata").get("annotations")).put("y", "2");
        ObjectNode status = (ObjectNode) expected.get("status");
        status.put("phase", "Pending");
        ((ObjectNode) ((ArrayNode) status.get("conditions")).get(1))
                .put("status", "True")
                .put("lastTransitionTime", "2026-12-05T10:00:00Z")
                .without(java.util.List.of("reason", "message"));
        JsonNode after = store.read("/api/v1/namespaces/default/pods/p").orElseThrow();
        ObjectNode metadata = (ObjectNode) expected.get("metadata");
        metadata.set("resourceVersion", after.path("metadata").get("resourceVersion"));
        metadata.put("generation", before.path("metadata").path("generation").asLong() + 1);
        assertThat(after.path("metadata").path("resourceVersion").asLong())
                .isGreaterThan(before.path("metadata").path("resourceVersion").asLong());
        assertThat(CrudStore.bodyOf(store.dispatch(HttpMethod.GET, "/api/v1/namespaces/default/pods/p", null, null)))
                .isEqualTo(Serialization.asJson(expected));
    }
}
