package io.lahar.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class ClusterDispatcherTest {

    private static final BearerToken TOKEN = BearerToken.of(java.util.Optional.empty());

    @Test
    void readyzAnswers500UntilStartUpIsDoneWhileLivezAnswersAtOnce() {
        AtomicBoolean ready = new AtomicBoolean();
        ClusterDispatcher dispatcher = dispatcher(ready::get);

        assertThat(get(dispatcher, "/readyz").code()).isEqualTo(500);
        assertThat(get(dispatcher, "/livez").code()).isEqualTo(200);
        ready.set(true);
        MockResponse readyz = get(dispatcher, "/readyz");
        assertThat(readyz.code()).isEqualTo(200);
        assertThat(CrudStore.bodyOf(readyz)).isEqualTo("ok");
    }

    @Test
    void selectorsListAndDeleteOnlyWhatTheySelectAmongTheKindsObjects() {
        ClusterDispatcher dispatcher = dispatcher(() -> true);
        for (String[] pod : new String[][] {{"a", "web", "1"}, {"b", "db", "2"}, {"c", "web", "3"}, {"d", "", "4"}}) {
            String labels = pod[1].isEmpty() ? "{}" : "{\"app\": \"" + pod[1] + "\"}";
            MockResponse created = send(
                    dispatcher,
                    HttpMethod.POST,
                    "/api/v1/namespaces/ns/pods",
                    "{\"apiVersion\": \"v1\", \"kind\": \"Pod\", \"metadata\": {\"name\": \"" + pod[0]
                            + "\", \"labels\": " + labels + "}, \"spec\": {\"nodeName\": \"n" + pod[2] + "\"}}");
            assertThat(created.code()).isEqualTo(201);
        }
        send(
                dispatcher,
                HttpMethod.POST,
                "/api/v1/namespaces/other/pods",
                "{\"apiVersion\": \"v1\", \"kind\": \"Pod\", \"metadata\": {\"name\": \"e\", \"labels\":"
                        + " {\"app\": \"web\"}}}");

        MockResponse web = get(dispatcher, "/api/v1/namespaces/ns/pods?labelSelector=app%3Dweb");
        assertThat(web.code()).isEqualTo(200);
        JsonNode list = CrudStore.parse(CrudStore.bodyOf(web));
        assertThat(list.path("kind").asText()).isEqualTo("PodList");
        assertThat(names(list)).containsExactly("a", "c");
        assertThat(list.path("metadata").path("resourceVersion").asLong()).isPositive();
        assertThat(names(get(dispatcher, "/api/v1/pods?labelSelector=app%3Dweb")))
                .containsExactlyInAnyOrder("a", "c", "e");
        assertThat(names(get(dispatcher, "/api/v1/namespaces/ns/pods?labelSelector=app%20notin%20(web)")))
                .containsExactly("b", "d");
        assertThat(names(get(dispatcher, "/api/v1/namespaces/ns/pods?fieldSelector=spec.nodeName%3Dn2")))
                .containsExactly("b");
        // Selectors apply to collections: one object is answered whatever they say.
        assertThat(get(dispatcher, "/api/v1/namespaces/ns/pods/b?labelSelector=app%3Dweb")
                        .code())
                .isEqualTo(200);

        MockResponse deleted = send(
                dispatcher, HttpMethod.DELETE, "/api/v1/namespaces/ns/pods?labelSelector=app%20in%20(web,db)", null);
        assertThat(deleted.code()).isEqualTo(200);
        assertThat(names(CrudStore.parse(CrudStore.bodyOf(deleted)))).containsExactly("a", "b", "c");
        assertThat(names(get(dispatcher, "/api/v1/namespaces/ns/pods"))).containsExactly("d");
        assertThat(names(get(dispatcher, "/api/v1/namespaces/other/pods"))).containsExactly("e");
    }

    private static ClusterDispatcher dispatcher(java.util.function.BooleanSupplier ready) {
        ApiDiscovery discovery = ApiDiscovery.volcanoCluster();
        return new ClusterDispatcher(
                discovery,
                new CrudStore(new IndexedCrudDispatcher(discovery.customResourceContexts())),
                Clock.systemUTC(),
                () -> "127.0.0.1:6443",
                () -> {},
                ready,
                TOKEN);
    }

    private static List<String> names(MockResponse response) {
        assertThat(response.code()).isEqualTo(200);
        return names(CrudStore.parse(CrudStore.bodyOf(response)));
    }

    private static List<String> names(JsonNode list) {
        List<String> names = new ArrayList<>();
        list.path("items")
                .forEach(item -> names.add(item.path("metadata").path("name").asText()));
        return names;
    }

    private static MockResponse get(ClusterDispatcher dispatcher, String path) {
        return send(dispatcher, HttpMethod.GET, path, null);
    }

    private static MockResponse send(ClusterDispatcher dispatcher, HttpMethod method, String path, String body) {
        Headers.Builder headers = Headers.builder().add("Authorization", "Bearer " + TOKEN.value());
        if (body != null) {
            headers.add("Content-Type", "application/json");
        }
        return dispatcher.dispatch(new RecordedRequest(
                "HTTP/1.1",
                method,
                path,
                headers.build(),
                new Buffer(body == null ? null : body.getBytes(java.nio.charset.StandardCharsets.UTF_8))));
    }
}
