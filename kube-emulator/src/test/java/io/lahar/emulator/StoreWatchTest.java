package io.lahar.emulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The store's watches: every watcher is told of every change, whatever becomes of another watcher's
 * connection meanwhile, and what a watcher is told is what the store then answers.
 */
class StoreWatchTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    private IndexedCrudDispatcher crud;
    private CrudStore store;

    @BeforeEach
    void setUp() {
        crud = new IndexedCrudDispatcher(ApiDiscovery.volcanoCluster().customResourceContexts());
        store = new CrudStore(crud);
    }

    /**
     * A watcher whose connection ends while a change is written (the kubelet's informer closing its
     * watch after its timeout, a client gone): fabric8's own watch shut its sender down before it
     * left the store's watchers, so a change written in between failed in the middle of telling the
     * watchers — those after it never heard of the change and the index kept the old object, while
     * the journal and fabric8's map had the new one. Held open here by a send that does not return.
     */
    @Test
    void aWatcherWhoseConnectionEndsMeanwhileCostsTheOthersNothing() throws Exception {
        createPod("a", "p");
        FakeSocket ending = new FakeSocket();
        ending.hold = new CountDownLatch(1);
        WebSocketListener endingWatch = watch("/api/v1/namespaces/a/pods?watch=true");
        endingWatch.onOpen(ending, null);
        FakeSocket watcher = new FakeSocket();
        WebSocketListener watch = watch("/api/v1/namespaces/a/pods?watch=true");
        watch.onOpen(watcher, null);
        await().atMost(WAIT).until(() -> watcher.sent.size() == 1 && ending.sending);

        Thread closing = Thread.ofPlatform().start(() -> endingWatch.onClosed(ending, 1000, "gone"));
        try {
            await().atMost(WAIT)
                    .until(() -> closing.getState() == Thread.State.TIMED_WAITING
                            || closing.getState() == Thread.State.TERMINATED);

            JsonNode pod = store.get("/api/v1/namespaces/a/pods/p").orElseThrow();
            ((ObjectNode) pod).putObject("status").put("phase", "Succeeded");
            assertThat(store.put("/api/v1/namespaces/a/pods/p/status", pod).code())
                    .isEqualTo(200);

            assertThat(store.get("/api/v1/namespaces/a/pods/p")
                            .orElseThrow()
                            .path("status")
                            .path("phase")
                            .asText())
                    .isEqualTo("Succeeded");
            await().atMost(WAIT).until(() -> watcher.sent.size() == 2);
            JsonNode event = CrudStore.parse(watcher.sent.get(1));
            assertThat(event.path("type").asText()).isEqualTo("MODIFIED");
            assertThat(event.path("object").path("status").path("phase").asText())
                    .isEqualTo("Succeeded");
        } finally {
            ending.hold.countDown();
            closing.join(TimeUnit.SECONDS.toMillis(10));
        }
    }

    @Test
    void aWatcherIsHandedWhatItSelectsThenEveryChangeInOrderAndADeletionWithTheObjectAsItWas() {
        createPod("a", "before");
        createPod("b", "elsewhere");
        FakeSocket watcher = new FakeSocket();
        watch("/api/v1/namespaces/a/pods?watch=true").onOpen(watcher, null);
        createPod("a", "after");
        createPod("b", "elsewhere-too");
        JsonNode pod = store.get("/api/v1/namespaces/a/pods/before").orElseThrow();
        ((ObjectNode) pod).putObject("status").put("phase", "Running");
        assertThat(store.put("/api/v1/namespaces/a/pods/before/status", pod).code())
                .isEqualTo(200);
        assertThat(store.dispatch(HttpMethod.DELETE, "/api/v1/namespaces/a/pods/before", null, null)
                        .code())
                .isEqualTo(200);

        await().atMost(WAIT).until(() -> watcher.sent.size() == 4);
        assertThat(watcher.sent.stream().map(CrudStore::parse).toList())
                .extracting(
                        e -> e.path("type").asText(),
                        e -> e.path("object").path("metadata").path("name").asText(),
                        e -> e.path("object").path("status").path("phase").asText())
                .containsExactly(
                        tuple("ADDED", "before", "Pending"),
                        tuple("ADDED", "after", "Pending"),
                        tuple("MODIFIED", "before", "Running"),
                        tuple("DELETED", "before", "Running"));
        // The deletion's JSON, made from the stored text, is the object as it was written out with the deletion's
        // version.
        JsonNode modified = CrudStore.parse(watcher.sent.get(2)).path("object").deepCopy();
        long version =
                Long.parseLong(modified.path("metadata").path("resourceVersion").asText());
        ((ObjectNode) modified.get("metadata")).put("resourceVersion", String.valueOf(version + 1));
        assertThat(watcher.sent.get(3))
                .isEqualTo("{\"type\":\"DELETED\",\"object\":" + Serialization.asJson(modified) + "}");
    }

    @Test
    void aWatchForOneNameIsToldOfThatObjectOnly() {
        createPod("a", "one");
        createPod("a", "two");
        FakeSocket watcher = new FakeSocket();
        watch("/api/v1/namespaces/a/pods?watch=true&fieldSelector=metadata.name%3Dtwo")
                .onOpen(watcher, null);
        await().atMost(WAIT).until(() -> watcher.sent.size() == 1);
        assertThat(CrudStore.parse(watcher.sent.getFirst())
                        .path("object")
                        .path("metadata")
                        .path("name")
                        .asText())
                .isEqualTo("two");
    }

    @Test
    void aWatcherThatFallsTooFarBehindIsClosedAndTheWritesGoOn() {
        createPod("a", "first");
        FakeSocket stuck = new FakeSocket();
        stuck.hold = new CountDownLatch(1);
        watch("/api/v1/namespaces/a/pods?watch=true").onOpen(stuck, null);
        try {
            await().atMost(WAIT).until(() -> stuck.sending);
            for (int i = 0; i <= StoreWatch.MAX_BEHIND; i++) {
                createPod("a", "p" + i);
            }
            assertThat(stuck.closed).isTrue();
            assertThat(store.get("/api/v1/namespaces/a/pods/p" + StoreWatch.MAX_BEHIND))
                    .isPresent();
        } finally {
            stuck.hold.countDown();
        }
    }

    @Test
    void anObjectMarkedForDeletionHasANewVersionAndItsWatchersAreTold() {
        String pod = "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"f\",\"namespace\":\"a\","
                + "\"finalizers\":[\"x/y\"]}}";
        store.dispatch(HttpMethod.POST, "/api/v1/namespaces/a/pods", "application/json", pod);
        String version = store.get("/api/v1/namespaces/a/pods/f")
                .orElseThrow()
                .path("metadata")
                .path("resourceVersion")
                .asText();
        FakeSocket watcher = new FakeSocket();
        watch("/api/v1/namespaces/a/pods?watch=true").onOpen(watcher, null);

        store.dispatch(HttpMethod.DELETE, "/api/v1/namespaces/a/pods/f", null, null);

        JsonNode marked = store.get("/api/v1/namespaces/a/pods/f").orElseThrow();
        assertThat(marked.path("metadata").path("resourceVersion").asText()).isNotEqualTo(version);
        await().atMost(WAIT).until(() -> watcher.sent.size() == 2);
        JsonNode event = CrudStore.parse(watcher.sent.get(1));
        assertThat(event.path("type").asText()).isEqualTo("MODIFIED");
        assertThat(event.path("object")
                        .path("metadata")
                        .path("deletionTimestamp")
                        .asText())
                .isNotEmpty();
    }

    @Test
    void aWatchFromAListsVersionIsToldFirstOfWhatWasDeletedSinceThenOfWhatExists() {
        createPod("a", "stays");
        createPod("a", "goes");
        long listed = crud.currentVersion();
        assertThat(store.dispatch(HttpMethod.DELETE, "/api/v1/namespaces/a/pods/goes", null, null)
                        .code())
                .isEqualTo(200);
        createPod("a", "comes");

        FakeSocket resumed = new FakeSocket();
        watch("/api/v1/namespaces/a/pods?watch=true&resourceVersion=" + listed).onOpen(resumed, null);
        FakeSocket fresh = new FakeSocket();
        watch("/api/v1/namespaces/a/pods?watch=true").onOpen(fresh, null);

        await().atMost(WAIT).until(() -> resumed.sent.size() == 3 && fresh.sent.size() == 2);
        assertThat(resumed.sent.stream().map(CrudStore::parse).toList())
                .extracting(
                        e -> e.path("type").asText(),
                        e -> e.path("object").path("metadata").path("name").asText())
                .containsExactly(tuple("DELETED", "goes"), tuple("ADDED", "stays"), tuple("ADDED", "comes"));
        assertThat(CrudStore.parse(resumed.sent.getFirst())
                        .path("object")
                        .path("metadata")
                        .path("resourceVersion")
                        .asLong())
                .isGreaterThan(listed);
        assertThat(fresh.sent.stream().map(CrudStore::parse).toList())
                .extracting(e -> e.path("type").asText())
                .containsExactly("ADDED", "ADDED");
    }

    @Test
    void aSelectingWatchFromAListsVersionIsToldOfTheDeletionOfAnObjectItSelects() {
        createPod("a", "mine", "managed=yes");
        createPod("a", "other", "managed=no");
        long listed = crud.currentVersion();
        store.dispatch(HttpMethod.DELETE, "/api/v1/namespaces/a/pods/mine", null, null);
        store.dispatch(HttpMethod.DELETE, "/api/v1/namespaces/a/pods/other", null, null);

        FakeSocket watcher = new FakeSocket();
        ((StoreWatch) watch("/api/v1/namespaces/a/pods?watch=true&resourceVersion=" + listed))
                .selecting(Selectors.fromQuery("labelSelector=managed%3Dyes").orElseThrow())
                .onOpen(watcher, null);

        await().atMost(WAIT).until(() -> !watcher.sent.isEmpty());
        assertThat(watcher.sent)
                .singleElement()
                .satisfies(deleted -> assertThat(CrudStore.parse(deleted)
                                .path("object")
                                .path("metadata")
                                .path("name")
                                .asText())
                        .isEqualTo("mine"));
    }

    @Test
    void aSelectingWatchPassesAnEventOnAsItIsAndTellsAnObjectComingIntoOrOutOfItsSelectorAsAddedOrDeleted() {
        SelectingWatch selecting = new SelectingWatch(
                Selectors.fromQuery("labelSelector=managed%3Dyes").orElseThrow());
        StoreEvent added = event("ADDED", "yes");
        StoreEvent modified = event("MODIFIED", "yes");

        assertThat(selecting.select(added)).isSameAs(added);
        assertThat(selecting.select(modified)).isSameAs(modified);
        assertThat(CrudStore.parse(selecting.select(event("MODIFIED", "no")).envelope())
                        .path("type")
                        .asText())
                .isEqualTo("DELETED");
        assertThat(selecting.select(event("MODIFIED", "no"))).isNull();
        JsonNode back = CrudStore.parse(selecting.select(modified).envelope());
        assertThat(back.path("type").asText()).isEqualTo("ADDED");
        assertThat(back.path("object")).isEqualTo(CrudStore.parse(modified.json()));
    }

    private static StoreEvent event(String type, String managed) {
        return new StoreEvent(
                type,
                "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":"
                        + "{\"name\":\"p\",\"namespace\":\"a\",\"labels\":{\"managed\":\"" + managed + "\"}}}",
                null);
    }

    /**
     * A change is one event for every watcher it goes to: the same envelope, written once, is what
     * each watch sends; a selecting watch decides from the event's tree and sends it as it is.
     */
    @Test
    void everyWatcherOfAChangeSendsTheSameEnvelopeWrittenOnce() {
        FakeSocket plain = new FakeSocket();
        FakeSocket other = new FakeSocket();
        FakeSocket selecting = new FakeSocket();
        watch("/api/v1/namespaces/a/pods?watch=true").onOpen(plain, null);
        watch("/api/v1/namespaces/a/pods?watch=true").onOpen(other, null);
        ((StoreWatch) watch("/api/v1/namespaces/a/pods?watch=true"))
                .selecting(Selectors.fromQuery("labelSelector=managed%3Dyes").orElseThrow())
                .onOpen(selecting, null);

        createPod("a", "mine", "managed=yes");

        await().atMost(WAIT)
                .until(() -> plain.sent.size() == 1 && other.sent.size() == 1 && selecting.sent.size() == 1);
        assertThat(other.sent.getFirst()).isSameAs(plain.sent.getFirst());
        assertThat(selecting.sent.getFirst()).isSameAs(plain.sent.getFirst());
        assertThat(CrudStore.parse(plain.sent.getFirst()).path("type").asText()).isEqualTo("ADDED");
    }

    @Test
    void aWatchFromAVersionWhoseDeletionsAreNoLongerKnownIsAnswered410() {
        createPod("a", "first");
        long old = crud.currentVersion();
        for (int i = 0; i <= StoreWatchers.DELETIONS_KEPT; i++) {
            createPod("a", "p" + i);
            store.dispatch(HttpMethod.DELETE, "/api/v1/namespaces/a/pods/p" + i, null, null);
        }
        FakeSocket tooOld = new FakeSocket();
        watch("/api/v1/namespaces/a/pods?watch=true&resourceVersion=" + old).onOpen(tooOld, null);
        long recent = crud.currentVersion();
        FakeSocket current = new FakeSocket();
        watch("/api/v1/namespaces/a/pods?watch=true&resourceVersion=" + recent).onOpen(current, null);

        await().atMost(WAIT).until(() -> tooOld.closed && current.sent.size() == 1);
        assertThat(tooOld.sent).singleElement().satisfies(error -> {
            JsonNode event = CrudStore.parse(error);
            assertThat(event.path("type").asText()).isEqualTo("ERROR");
            assertThat(event.path("object").path("code").asInt()).isEqualTo(410);
        });
        assertThat(current.closed).isFalse();

        crud.restoredAt(recent + 5); // as after a restart: nothing from before can be followed on from
        FakeSocket fromBefore = new FakeSocket();
        watch("/api/v1/namespaces/a/pods?watch=true&resourceVersion=" + recent).onOpen(fromBefore, null);
        await().atMost(WAIT).until(() -> fromBefore.closed);
        assertThat(CrudStore.parse(fromBefore.sent.getFirst())
                        .path("object")
                        .path("code")
                        .asInt())
                .isEqualTo(410);
    }

    private WebSocketListener watch(String path) {
        return crud.handleGet(path).getWebSocketListener();
    }

    private void createPod(String namespace, String name) {
        createPod(namespace, name, "kind=test");
    }

    private void createPod(String namespace, String name, String label) {
        String[] kv = label.split("=");
        String pod = "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"" + name
                + "\",\"namespace\":\"" + namespace + "\",\"labels\":{\"" + kv[0] + "\":\"" + kv[1]
                + "\"}},\"status\":{\"phase\":\"Pending\"}}";
        assertThat(store.dispatch(HttpMethod.POST, "/api/v1/namespaces/" + namespace + "/pods", "application/json", pod)
                        .code())
                .isEqualTo(201);
    }

    /** A watch connection that keeps what it is sent; {@link #hold} makes a send wait, as a slow or dying connection's. */
    static final class FakeSocket implements WebSocket {
        final List<String> sent = new CopyOnWriteArrayList<>();
        volatile CountDownLatch hold;
        volatile boolean sending;
        volatile boolean closed;

        @Override
        public RecordedRequest request() {
            return null;
        }

        @Override
        public boolean send(String text) {
            sending = true;
            CountDownLatch latch = hold;
            if (latch != null) {
                try {
                    latch.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            sent.add(text);
            return !closed;
        }

        @Override
        public boolean send(byte[] bytes) {
            return send(new String(bytes, java.nio.charset.StandardCharsets.UTF_8));
        }

        @Override
        public boolean close(int code, String reason) {
            closed = true;
            return true;
        }
    }
}
