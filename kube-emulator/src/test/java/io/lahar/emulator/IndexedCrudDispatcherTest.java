package io.lahar.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.MockResponse;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The indexed store answers as fabric8's scanning store did, looking at the objects concerned only. */
class IndexedCrudDispatcherTest {

    private IndexedCrudDispatcher crud;
    private CrudStore store;

    @BeforeEach
    void setUp() {
        crud = new IndexedCrudDispatcher(ApiDiscovery.volcanoCluster().customResourceContexts());
        store = new CrudStore(crud);
    }

    @Test
    void aGetCreateOrDeleteOfOnePodLooksAtThatPodOnlyHoweverManyPodsExist() {
        for (int i = 0; i < 2_000; i++) {
            assertThat(createPod(i % 2 == 0 ? "a" : "b", "p" + i).code()).isEqualTo(201);
        }
        assertThat(store.get("/api/v1/namespaces/a/pods/p10")).isPresent();
        assertThat(crud.lastExamined()).isEqualTo(1);

        assertThat(createPod("a", "p10").code()).isEqualTo(409); // AlreadyExists, found through the index
        assertThat(crud.lastExamined()).isLessThanOrEqualTo(1);

        assertThat(store.dispatch(HttpMethod.DELETE, "/api/v1/namespaces/a/pods/p10", null, null)
                        .code())
                .isEqualTo(200);
        assertThat(crud.lastExamined()).isEqualTo(1);
        assertThat(store.get("/api/v1/namespaces/a/pods/p10")).isEmpty();
        assertThat(store.get("/api/v1/namespaces/a/pods/p12")).isPresent();
    }

    @Test
    void aListIsOfItsNamespaceOrOfAllAndKeepsTheStoresOrder() {
        createPod("a", "one");
        createPod("b", "two");
        createPod("a", "three");
        assertThat(names("/api/v1/namespaces/a/pods")).containsExactly("one", "three");
        assertThat(crud.lastExamined()).isEqualTo(2);
        assertThat(names("/api/v1/pods")).containsExactly("one", "two", "three");
        assertThat(names("/api/v1/namespaces/c/pods")).isEmpty();
    }

    @Test
    void theSamePluralInTwoGroupsAndTheSameNameInTwoNamespacesStayApart() {
        String batchJob =
                "{\"apiVersion\":\"batch/v1\",\"kind\":\"Job\",\"metadata\":{\"name\":\"j\",\"namespace\":\"a\"}}";
        String volcanoJob =
                "{\"apiVersion\":\"batch.volcano.sh/v1alpha1\",\"kind\":\"Job\",\"metadata\":{\"name\":\"j\",\"namespace\":\"a\"}}";
        assertThat(store.dispatch(HttpMethod.POST, "/apis/batch/v1/namespaces/a/jobs", "application/json", batchJob)
                        .code())
                .isEqualTo(201);
        assertThat(store.dispatch(
                                HttpMethod.POST,
                                "/apis/batch.volcano.sh/v1alpha1/namespaces/a/jobs",
                                "application/json",
                                volcanoJob)
                        .code())
                .isEqualTo(201);
        createPod("a", "same");
        createPod("b", "same");

        assertThat(store.get("/apis/batch.volcano.sh/v1alpha1/namespaces/a/jobs/j")
                        .orElseThrow()
                        .path("apiVersion")
                        .asText())
                .isEqualTo("batch.volcano.sh/v1alpha1");
        assertThat(store.get("/apis/batch/v1/namespaces/a/jobs/j")
                        .orElseThrow()
                        .path("apiVersion")
                        .asText())
                .isEqualTo("batch/v1");
        assertThat(store.get("/api/v1/namespaces/b/pods/same")
                        .orElseThrow()
                        .path("metadata")
                        .path("namespace")
                        .asText())
                .isEqualTo("b");
        store.dispatch(HttpMethod.DELETE, "/api/v1/namespaces/a/pods/same", null, null);
        assertThat(names("/api/v1/pods")).containsExactly("same");
    }

    @Test
    void anUpdateMovesTheObjectInTheIndexAndALabelSelectsFromItsKindOnly() {
        createPod("a", "p");
        JsonNode pod = store.get("/api/v1/namespaces/a/pods/p").orElseThrow();
        ((com.fasterxml.jackson.databind.node.ObjectNode) pod.get("metadata"))
                .putObject("labels")
                .put("role", "x");
        assertThat(store.put("/api/v1/namespaces/a/pods/p", pod).code()).isEqualTo(200);
        assertThat(names("/api/v1/namespaces/a/pods?labelSelector=role%3Dx")).containsExactly("p");
        assertThat(names("/api/v1/namespaces/a/pods?labelSelector=role%3Dy")).isEmpty();
        assertThat(names("/api/v1/namespaces/a/pods")).containsExactly("p");
    }

    @Test
    void aStatusWriteFromAnOlderVersionIsRefusedWithAConflict() {
        createPod("a", "p");
        JsonNode read = store.get("/api/v1/namespaces/a/pods/p").orElseThrow();
        JsonNode other = read.deepCopy();
        ((com.fasterxml.jackson.databind.node.ObjectNode) other)
                .putObject("status")
                .put("phase", "Running");
        assertThat(store.put("/api/v1/namespaces/a/pods/p/status", other).code())
                .isEqualTo(200);

        ((com.fasterxml.jackson.databind.node.ObjectNode) read)
                .putObject("status")
                .put("phase", "Failed");
        MockResponse stale = store.put("/api/v1/namespaces/a/pods/p/status", read);

        assertThat(stale.code()).isEqualTo(409);
        assertThat(CrudStore.parse(CrudStore.bodyOf(stale)).path("message").asText())
                .isEqualTo("Operation cannot be fulfilled on pods \"p\": the object has been modified;"
                        + " please apply your changes to the latest version and try again");
        JsonNode stored = store.get("/api/v1/namespaces/a/pods/p").orElseThrow();
        assertThat(stored.path("status").path("phase").asText()).isEqualTo("Running");
        // Without a version, a status write is unconditional, as on kube-apiserver.
        ((com.fasterxml.jackson.databind.node.ObjectNode) read.get("metadata")).remove("resourceVersion");
        assertThat(store.put("/api/v1/namespaces/a/pods/p/status", read).code()).isEqualTo(200);
        assertThat(store.get("/api/v1/namespaces/a/pods/p")
                        .orElseThrow()
                        .path("status")
                        .path("phase")
                        .asText())
                .isEqualTo("Failed");
    }

    @Test
    void aStatusWriteChangesTheStatusOnlyAndTellsWatchersOnceWithANewVersion() throws Exception {
        createPod("a", "p");
        List<String> events = new ArrayList<>();
        AutoCloseable watch = store.watch("/api/v1/pods", (type, json) -> events.add(type + " " + json));
        ObjectNode read = (ObjectNode) store.get("/api/v1/namespaces/a/pods/p").orElseThrow();
        String version = read.path("metadata").path("resourceVersion").asText();
        ObjectNode written = read.deepCopy();
        written.with("spec").put("nodeName", "ignored");
        ((ObjectNode) written.get("metadata")).putObject("labels").put("ignored", "too");
        written.putObject("status").put("phase", "Running");

        MockResponse answer = store.put("/api/v1/namespaces/a/pods/p/status", written);

        assertThat(answer.code()).isEqualTo(200);
        JsonNode stored = store.get("/api/v1/namespaces/a/pods/p").orElseThrow();
        assertThat(CrudStore.parse(CrudStore.bodyOf(answer))).isEqualTo(stored);
        assertThat(stored.path("status").path("phase").asText()).isEqualTo("Running");
        assertThat(stored.path("spec")).isEqualTo(read.path("spec"));
        assertThat(stored.path("metadata").has("labels")).isFalse();
        assertThat(stored.path("metadata").path("uid"))
                .isEqualTo(read.path("metadata").path("uid"));
        assertThat(stored.path("metadata").path("resourceVersion").asLong()).isGreaterThan(Long.parseLong(version));
        assertThat(names("/api/v1/namespaces/a/pods?labelSelector=ignored%3Dtoo"))
                .isEmpty();

        // The same status again is no change: no new version, no event.
        ObjectNode again = (ObjectNode) stored.deepCopy();
        assertThat(store.put("/api/v1/namespaces/a/pods/p/status", again).code())
                .isEqualTo(200);
        assertThat(store.get("/api/v1/namespaces/a/pods/p").orElseThrow()).isEqualTo(stored);
        watch.close();
        assertThat(events).hasSize(2);
        assertThat(events.get(1)).startsWith("MODIFIED ");
        assertThat(CrudStore.parse(events.get(1).substring("MODIFIED ".length())))
                .isEqualTo(stored);
    }

    @Test
    void aStatusWriteOfAnotherObjectOrOfNoneIsRefusedAsTheStoreRefusedIt() {
        createPod("a", "p");
        ObjectNode read = (ObjectNode) store.get("/api/v1/namespaces/a/pods/p").orElseThrow();
        ObjectNode renamed = read.deepCopy();
        ((ObjectNode) renamed.get("metadata")).put("name", "q");
        assertThat(store.put("/api/v1/namespaces/a/pods/p/status", renamed).code())
                .isEqualTo(400);
        ObjectNode kindless = read.deepCopy();
        kindless.remove("kind");
        assertThat(store.put("/api/v1/namespaces/a/pods/p/status", kindless).code())
                .isEqualTo(422);
        assertThat(store.put("/api/v1/namespaces/a/pods/none/status", read).code())
                .isEqualTo(404);
        assertThat(store.get("/api/v1/namespaces/a/pods/p").orElseThrow()).isEqualTo(read);
    }

    @Test
    void anUpdateKeepsTheStoredIdentityCountsTheGenerationOnASpecChangeOnlyAndRefusesAStaleOne() {
        createPod("a", "p");
        ObjectNode created =
                (ObjectNode) store.get("/api/v1/namespaces/a/pods/p").orElseThrow();
        long generation = created.path("metadata").path("generation").asLong(0);

        ObjectNode annotated = created.deepCopy();
        ((ObjectNode) annotated.get("metadata"))
                .put("uid", "forged")
                .putObject("annotations")
                .put("k", "v");
        assertThat(store.put("/api/v1/namespaces/a/pods/p", annotated).code()).isEqualTo(200);
        JsonNode afterAnnotation = store.get("/api/v1/namespaces/a/pods/p").orElseThrow();
        assertThat(afterAnnotation.path("metadata").path("uid"))
                .isEqualTo(created.path("metadata").path("uid"));
        assertThat(afterAnnotation
                        .path("metadata")
                        .path("annotations")
                        .path("k")
                        .asText())
                .isEqualTo("v");
        assertThat(afterAnnotation.path("metadata").path("generation").asLong(0))
                .isEqualTo(generation);
        assertThat(afterAnnotation.path("metadata").path("resourceVersion").asLong())
                .isGreaterThan(created.path("metadata").path("resourceVersion").asLong());

        ObjectNode respecced = (ObjectNode) afterAnnotation.deepCopy();
        respecced.with("spec").put("nodeName", "n1");
        assertThat(store.put("/api/v1/namespaces/a/pods/p", respecced).code()).isEqualTo(200);
        JsonNode afterSpec = store.get("/api/v1/namespaces/a/pods/p").orElseThrow();
        assertThat(afterSpec.path("metadata").path("generation").asLong()).isEqualTo(generation + 1);
        assertThat(afterSpec.path("spec").path("nodeName").asText()).isEqualTo("n1");

        // The same object again is no change, even from a tree whose numbers are of other types; one
        // from the version before is stale.
        ObjectNode longs = (ObjectNode) afterSpec.deepCopy();
        longs.with("spec").put("terminationGracePeriodSeconds", 30L);
        assertThat(store.put("/api/v1/namespaces/a/pods/p", longs).code()).isEqualTo(200);
        afterSpec = store.get("/api/v1/namespaces/a/pods/p").orElseThrow();
        ObjectNode ints = (ObjectNode) afterSpec.deepCopy();
        ints.with("spec").put("terminationGracePeriodSeconds", 30);
        assertThat(store.put("/api/v1/namespaces/a/pods/p", ints).code()).isEqualTo(200);
        assertThat(store.get("/api/v1/namespaces/a/pods/p")
                        .orElseThrow()
                        .path("metadata")
                        .path("resourceVersion"))
                .isEqualTo(afterSpec.path("metadata").path("resourceVersion"));
        assertThat(store.put("/api/v1/namespaces/a/pods/p", afterSpec.deepCopy())
                        .code())
                .isEqualTo(200);
        assertThat(store.get("/api/v1/namespaces/a/pods/p").orElseThrow()).isEqualTo(afterSpec);
        ObjectNode stale = (ObjectNode) afterAnnotation.deepCopy();
        stale.with("spec").put("nodeName", "n2");
        assertThat(store.put("/api/v1/namespaces/a/pods/p", stale).code()).isEqualTo(409);
        assertThat(store.get("/api/v1/namespaces/a/pods/p").orElseThrow()).isEqualTo(afterSpec);
    }

    @Test
    void aCreateIsStoredAsTheStoreMadeItAndRefusedWhenItExistsOrNamesAnotherNamespace() {
        String generated = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"generateName\":\"cm\","
                + "\"labels\":{\"role\":\"x\"},\"deletionTimestamp\":\"2020-01-01T00:00:00Z\"},\"data\":{\"k\":\"v\"}}";
        MockResponse created =
                store.dispatch(HttpMethod.POST, "/api/v1/namespaces/a/configmaps", "application/json", generated);

        assertThat(created.code()).isEqualTo(201);
        JsonNode object = CrudStore.parse(CrudStore.bodyOf(created));
        JsonNode metadata = object.path("metadata");
        assertThat(metadata.path("name").asText()).startsWith("cm-");
        assertThat(metadata.path("namespace").asText()).isEqualTo("a");
        assertThat(metadata.path("uid").asText()).isNotEmpty();
        assertThat(metadata.path("creationTimestamp").asText()).endsWith("Z");
        assertThat(metadata.path("generation").asLong()).isEqualTo(1);
        assertThat(metadata.has("deletionTimestamp")).isFalse();
        assertThat(metadata.path("resourceVersion").asLong()).isEqualTo(crud.currentVersion());
        assertThat(object.path("data").path("k").asText()).isEqualTo("v");
        String path = "/api/v1/namespaces/a/configmaps/" + metadata.path("name").asText();
        assertThat(store.get(path).orElseThrow()).isEqualTo(object);
        assertThat(names("/api/v1/namespaces/a/configmaps?labelSelector=role%3Dx"))
                .containsExactly(metadata.path("name").asText());

        MockResponse again = createPod("a", "p");
        assertThat(again.code()).isEqualTo(201);
        MockResponse exists = createPod("a", "p");
        assertThat(exists.code()).isEqualTo(409);
        assertThat(CrudStore.parse(CrudStore.bodyOf(exists)).path("message").asText())
                .isEqualTo("Pod 'p' already exists");
        String elsewhere = "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"q\",\"namespace\":\"b\"}}";
        assertThat(store.dispatch(HttpMethod.POST, "/api/v1/namespaces/a/pods", "application/json", elsewhere)
                        .code())
                .isEqualTo(400);
        assertThat(store.get("/api/v1/namespaces/a/pods/q")).isEmpty();
    }

    @Test
    void anObjectWithFinalizersIsMarkedDeletedAndStays() {
        String pod = "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"f\",\"namespace\":\"a\","
                + "\"finalizers\":[\"x/y\"]}}";
        store.dispatch(HttpMethod.POST, "/api/v1/namespaces/a/pods", "application/json", pod);
        assertThat(store.dispatch(HttpMethod.DELETE, "/api/v1/namespaces/a/pods/f", null, null)
                        .code())
                .isEqualTo(200);
        JsonNode marked = store.get("/api/v1/namespaces/a/pods/f").orElseThrow();
        assertThat(marked.path("metadata").path("deletionTimestamp").asText()).isNotEmpty();
    }

    @Test
    void aListCarriesTheLatestResourceVersion() {
        createPod("a", "p");
        JsonNode created = store.get("/api/v1/namespaces/a/pods/p").orElseThrow();
        JsonNode list = CrudStore.parse(
                CrudStore.bodyOf(store.dispatch(HttpMethod.GET, "/api/v1/namespaces/a/pods", null, null)));
        assertThat(list.path("metadata").path("resourceVersion").asLong())
                .isGreaterThanOrEqualTo(
                        created.path("metadata").path("resourceVersion").asLong());
    }

    @Test
    void aNewNamespaceIsActiveWhateverItsBodySays() {
        String namespace = "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"team-a\"},"
                + "\"status\":{\"phase\":\"Terminating\"}}";
        assertThat(store.dispatch(HttpMethod.POST, "/api/v1/namespaces", "application/json", namespace)
                        .code())
                .isEqualTo(201);

        JsonNode stored = CrudStore.parse(
                CrudStore.bodyOf(store.dispatch(HttpMethod.GET, "/api/v1/namespaces/team-a", null, null)));
        assertThat(stored.path("status").path("phase").asText()).isEqualTo("Active");
    }

    private MockResponse createPod(String namespace, String name) {
        String pod = "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"" + name + "\",\"namespace\":\""
                + namespace + "\"},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"busybox\"}]}}";
        return store.dispatch(HttpMethod.POST, "/api/v1/namespaces/" + namespace + "/pods", "application/json", pod);
    }

    private List<String> names(String path) {
        JsonNode list = CrudStore.parse(CrudStore.bodyOf(store.dispatch(HttpMethod.GET, path, null, null)));
        List<String> out = new ArrayList<>();
        list.path("items")
                .forEach(item -> out.add(item.path("metadata").path("name").asText()));
        return out;
    }
}
