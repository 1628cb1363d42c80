package io.lahar.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.CustomResourceDefinitionProcessor;
import io.fabric8.kubernetes.client.server.mock.KubernetesAttributesExtractor;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesResponseComposer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.kubernetes.client.utils.Utils;
import io.fabric8.mockwebserver.crud.Attribute;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.lang.reflect.Field;
import java.net.HttpURLConnection;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * fabric8's CRUD store with its objects indexed ({@link ObjectIndex}): fabric8 finds an object by
 * matching the request against every stored object, so each get, create, bind or delete cost as
 * much as the objects the cluster held. Here the reads (get and list), the lookups the store's
 * create and patch make, and deletes go through the index. Creates and updates are ours too,
 * made on each object's parsed tree ({@link #update}), and every answer is the one fabric8 gave,
 * so clients see the same API. Watches are ours ({@link StoreWatchers}):
 * fabric8's could fail a write, and leave the index behind it, when a watcher's connection ended
 * at the moment of the write.
 */
class IndexedCrudDispatcher extends KubernetesCrudDispatcher {

    /** Where CustomResourceDefinitions are written: fabric8's store registers each as it is stored. */
    private static final String DEFINITIONS = "/apis/apiextensions.k8s.io/";

    /** {@code /apis/<group>/<version>}: an empty answer there is the group's resource list, fabric8's to give. */
    private static final Pattern API_RESOURCES = Pattern.compile("^/apis/[^/?]+/[^/?]+/?(\\?.*)?$");

    /** fabric8's own lock, so that our reads and deletes exclude its writes as its own do. */
    private final ReadWriteLock lock;

    private final ObjectIndex index = new ObjectIndex();
    private final StoreWatchers watchers;
    private final KubernetesAttributesExtractor extractor;
    /** fabric8's registry of custom resources, which tells a custom resource's plural and status subresource. */
    private final CustomResourceDefinitionProcessor definitions;

    private volatile long resourceVersion;

    IndexedCrudDispatcher(List<CustomResourceDefinitionContext> crdContexts) {
        super(crdContexts);
        this.lock = (ReadWriteLock) fabric8Field(this, "lock");
        this.definitions = (CustomResourceDefinitionProcessor) fabric8Field(this, "crdProcessor");
        this.watchers = new StoreWatchers(lock, index);
        this.extractor = (KubernetesAttributesExtractor) attributeExtractor;
    }

    /** The key fabric8 reads from {@code path}, read by hand where {@link ResourcePath} can. */
    @Override
    public AttributeSet getKey(String path) {
        ResourcePath parsed = ResourcePath.parse(path);
        return parsed != null ? parsed.attributes() : super.getKey(path);
    }

    /** What a request to {@code path} asks the store for, read by hand where {@link ResourcePath} can. */
    StoreQuery query(String path) {
        ResourcePath parsed = ResourcePath.parse(path);
        return parsed != null ? parsed.query() : StoreQuery.of(super.getKey(path));
    }

    @Override
    public boolean isStatusSubresourceEnabledForResource(String path) {
        ResourcePath parsed = ResourcePath.parse(path);
        return parsed != null ? statusSubresource(parsed) : super.isStatusSubresourceEnabledForResource(path);
    }

    /** What fabric8's registry answers for the path's group, version and plural. */
    private boolean statusSubresource(ResourcePath path) {
        return definitions
                .getCrdContext(path.group(), path.version(), path.plural())
                .map(CustomResourceDefinitionContext::isStatusSubresource)
                .orElse(false);
    }

    @Override
    public MockResponse handleGet(String path) {
        if (isWatch(path)) {
            return new MockResponse().withWebSocketUpgrade(StoreWatch.of(path, getKey(path), watchers));
        }
        StoreQuery query = query(path);
        List<ObjectIndex.Entry> found;
        long version;
        lock.readLock().lock();
        try {
            found = index.matching(query);
            version = resourceVersion;
        } finally {
            lock.readLock().unlock();
        }
        if (found.isEmpty() && !query.naming() && API_RESOURCES.matcher(path).matches()) {
            return super.handleGet(path);
        }
        return answer(query, found, version);
    }

    /**
     * What the collection at {@code path} holds that {@code kept} keeps, tested on each stored
     * object's tree under the read lock: a selector's list without writing every object of the kind
     * into one answer and reading it back. Empty where the path is a watch's, names one object, or
     * names nothing stored that fabric8 answers for (an API group's resources).
     */
    Optional<Selection> select(String path, Predicate<JsonNode> kept) {
        if (isWatch(path)) {
            return Optional.empty();
        }
        StoreQuery query = query(path);
        if (query.naming()) {
            return Optional.empty();
        }
        List<Selection.Selected> selected = new ArrayList<>();
        boolean none;
        long version;
        lock.readLock().lock();
        try {
            List<ObjectIndex.Entry> found = index.matching(query);
            none = found.isEmpty();
            for (ObjectIndex.Entry entry : found) {
                JsonNode tree = index.tree(entry.key());
                if (kept.test(tree)) {
                    selected.add(new Selection.Selected(entry.json(), tree));
                }
            }
            version = resourceVersion;
        } finally {
            lock.readLock().unlock();
        }
        if (none && API_RESOURCES.matcher(path).matches()) {
            return Optional.empty();
        }
        return Optional.of(new Selection(selected, version));
    }

    /** Objects a collection's path selected, and the store's version then. */
    record Selection(List<Selected> objects, long version) {

        /** One object: its JSON and its tree (the store's, never to be changed). */
        record Selected(String json, JsonNode tree) {}

        List<String> json() {
            return objects.stream().map(Selected::json).toList();
        }
    }

    /** The list of {@code items} (objects' JSON) at {@code version}, as the store answers a collection's GET. */
    MockResponse list(List<String> items, long version) {
        return new MockResponse()
                .setResponseCode(HttpURLConnection.HTTP_OK)
                .setBody(((KubernetesResponseComposer) responseComposer).compose(items, String.valueOf(version)));
    }

    @Override
    public MockResponse handleDelete(String path) {
        StoreQuery query = query(path);
        lock.writeLock().lock();
        try {
            List<ObjectIndex.Entry> found = index.matching(query);
            for (ObjectIndex.Entry entry : found) {
                delete(path, query, entry);
            }
            return answer(query, found, resourceVersion);
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** A create (POST) is ours ({@link #create}), but of a CustomResourceDefinition, which fabric8 registers, or of a body that is not JSON. */
    @Override
    public MockResponse handleCreate(RecordedRequest request) {
        String path = request.getPath();
        byte[] body = request.getBody().getBytes();
        if (path.startsWith(DEFINITIONS)) {
            return super.handleCreate(again(request, body));
        }
        JsonNode written;
        try {
            written = CrudStore.parse(new String(body, StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
            return super.handleCreate(again(request, body));
        }
        return create(path, written);
    }

    /**
     * Stores {@code written} as a new object at {@code path} (a collection's), answered as fabric8's
     * store answers (422, 409 when it exists, 400 for another namespace than the URL's). The body's
     * tree becomes the stored one ({@link ObjectWrite#initialize}), serialized once and kept parsed.
     */
    private MockResponse create(String path, JsonNode written) {
        Optional<MockResponse> invalid = ObjectWrite.invalid(written);
        if (invalid.isPresent()) {
            return invalid.get();
        }
        ObjectNode object = (ObjectNode) written;
        String name = object.path("metadata").path("name").asText("");
        ResourcePath parsed = ResourcePath.parse(path);
        String pathNamespace = parsed != null
                ? parsed.namespace()
                : extractor.fromKubernetesPath(path).get(KubernetesAttributesExtractor.NAMESPACE);
        boolean dropStatus =
                parsed != null ? statusSubresource(parsed) : super.isStatusSubresourceEnabledForResource(path);
        lock.writeLock().lock();
        try {
            AttributeSet query = parsed != null ? parsed.attributes() : super.getKey(path);
            if (!name.isEmpty() && !index.matching(named(parsed, query, name)).isEmpty()) {
                return ObjectWrite.exists(object.path("kind").asText(), name);
            }
            Optional<MockResponse> elsewhere = ObjectWrite.elsewhere(object, pathNamespace);
            if (elsewhere.isPresent()) {
                return elsewhere.get();
            }
            ObjectWrite.initialize(
                    object,
                    pathNamespace,
                    Utils.generateId().toString(),
                    Instant.now().truncatedTo(ChronoUnit.SECONDS).toString(),
                    requestResourceVersion(),
                    dropStatus);
            String json = Serialization.asJson(object);
            changing(path, null, null, json, object);
            // Stored as fabric8's processEvent stores it, with no definition to register (those are fabric8's to
            // create).
            StoreKey key = StoreKey.of(ObjectWrite.key(object, definitions, query));
            map.put(key.attributes(), json);
            index.put(key, json, object);
            watchers.changed(null, null, null, key, json, object, resourceVersion);
            return new MockResponse()
                    .setResponseCode(HttpURLConnection.HTTP_CREATED)
                    .setBody(json);
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** The query of a collection's path ({@code parsed}, or fabric8's {@code query} of it) naming {@code name}. */
    private static StoreQuery named(ResourcePath parsed, AttributeSet query, String name) {
        return parsed != null
                ? parsed.named(name).query()
                : StoreQuery.of(query.add(new Attribute(KubernetesAttributesExtractor.NAME, name)));
    }

    /** An update (PUT) is ours ({@link #update}), on the body parsed once; fabric8 answers a body that is not JSON. */
    @Override
    public MockResponse handleUpdate(RecordedRequest request) {
        String path = request.getPath();
        byte[] body = request.getBody().getBytes();
        JsonNode written;
        try {
            written = CrudStore.parse(new String(body, StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
            return super.handleUpdate(again(request, body));
        }
        return update(path, written);
    }

    /** {@code request} made again with {@code body}, which reading it consumed, for fabric8 to read. */
    private static RecordedRequest again(RecordedRequest request, byte[] body) {
        return new RecordedRequest(
                request.getHttpVersion(), request.method(), request.getPath(), request.getHeaders(), new Buffer(body));
    }

    /**
     * Replaces the object at {@code path}, or its status where the path is its {@code status}
     * subresource, with {@code written}, which becomes part of the stored object and must not be
     * changed afterwards. Made on the stored object's tree ({@link ObjectWrite}) and serialized
     * once, under the store's write lock, so that nothing comes in between the version check and
     * the write. A write from an older version than the stored one is refused with 409, a status
     * write too, as kube-apiserver refuses it (fabric8's store checked whole-object updates only);
     * one without a version is not.
     */
    MockResponse update(String path, JsonNode written) {
        Optional<MockResponse> invalid = ObjectWrite.invalid(written);
        if (invalid.isPresent()) {
            return invalid.get();
        }
        boolean status = path.endsWith("/status");
        ResourcePath parsed = ResourcePath.parse(path);
        StoreQuery query = parsed != null ? parsed.query() : StoreQuery.of(super.getKey(path));
        lock.writeLock().lock();
        try {
            List<ObjectIndex.Entry> found = index.matching(query);
            if (found.isEmpty()) {
                return new MockResponse().setResponseCode(HttpURLConnection.HTTP_NOT_FOUND);
            }
            ObjectIndex.Entry entry = found.get(0);
            JsonNode stored = index.tree(entry.key());
            Optional<MockResponse> refused =
                    ObjectWrite.misplaced(query, written).or(() -> ObjectWrite.stale(query, stored, written));
            if (refused.isPresent()) {
                return refused.get();
            }
            if (ObjectWrite.deletes(written)) {
                change(path, query.attributes(), entry.key(), null, null);
                return new MockResponse().setResponseCode(HttpURLConnection.HTTP_OK);
            }
            ObjectNode next;
            if (status) {
                if (ObjectWrite.sameStatus(stored, written)) {
                    return ok(entry.json());
                }
                next = ObjectWrite.withStatus(stored, written, requestResourceVersion());
            } else {
                next = (ObjectNode) written;
                ObjectWrite.keep(
                        stored,
                        next,
                        parsed != null ? statusSubresource(parsed) : super.isStatusSubresourceEnabledForResource(path));
                if (ObjectWrite.same(next, stored)) {
                    return ok(entry.json());
                }
                ((ObjectNode) next.get("metadata")).put("resourceVersion", String.valueOf(requestResourceVersion()));
            }
            String json = Serialization.asJson(next);
            if (status || (ObjectWrite.sameKey(stored, next) && !path.startsWith(DEFINITIONS))) {
                replace(path, entry, stored, json, next);
            } else {
                // Stored under a key of its own, or a definition the store registers: fabric8's way.
                change(path, query.attributes(), entry.key(), null, json);
            }
            return ok(json);
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** A new version of the object of {@code entry}, under the same key: the journal, fabric8's map, the index, the watchers. */
    private void replace(String path, ObjectIndex.Entry entry, JsonNode before, String json, JsonNode tree) {
        changing(path, entry.json(), before, json, tree);
        // Replaced where it is: only fabric8's scans read its map's order, and no request reaches them for an object
        // the index holds.
        map.put(entry.key().attributes(), json);
        index.put(entry.key(), json, tree);
        watchers.changed(entry.key(), entry.json(), before, entry.key(), json, tree, resourceVersion);
    }

    /**
     * The object at {@code path} parsed (a list if the path names none): a single object's is the
     * store's own tree, shared and never to be changed; empty if there is none.
     */
    Optional<JsonNode> read(String path) {
        StoreQuery query = query(path);
        if (!query.naming()) {
            MockResponse listed = handleGet(path);
            return listed.code() == HttpURLConnection.HTTP_OK
                    ? Optional.of(CrudStore.parse(CrudStore.bodyOf(listed)))
                    : Optional.empty();
        }
        lock.readLock().lock();
        try {
            List<ObjectIndex.Entry> found = index.matching(query);
            return found.isEmpty()
                    ? Optional.empty()
                    : Optional.of(index.tree(found.get(0).key()));
        } finally {
            lock.readLock().unlock();
        }
    }

    private static MockResponse ok(String json) {
        return new MockResponse().setResponseCode(HttpURLConnection.HTTP_OK).setBody(json);
    }

    /** What fabric8's delete does: remove the object, or mark it deleted while finalizers remain. */
    private void delete(String path, StoreQuery query, ObjectIndex.Entry entry) {
        JsonNode metadata = index.tree(entry.key()).path("metadata");
        if (metadata.path("finalizers").isEmpty()) {
            change(path, query.attributes(), entry.key(), null, null);
        } else if (!metadata.hasNonNull("deletionTimestamp")) {
            GenericKubernetesResource resource = Serialization.unmarshal(entry.json(), GenericKubernetesResource.class);
            resource.getMetadata().setDeletionTimestamp(LocalDateTime.now().toString());
            // A change, so a new version: an informer takes an unchanged version for no change at all.
            resource.getMetadata().setResourceVersion(String.valueOf(requestResourceVersion()));
            change(path, query.attributes(), entry.key(), resource, Serialization.asJson(resource));
        }
    }

    private MockResponse answer(StoreQuery query, List<ObjectIndex.Entry> found, long version) {
        MockResponse response = new MockResponse();
        if (query.naming()) {
            if (found.isEmpty()) {
                return response.setResponseCode(HttpURLConnection.HTTP_NOT_FOUND);
            }
            return response.setResponseCode(HttpURLConnection.HTTP_OK)
                    .setBody(found.get(0).json());
        }
        return list(found.stream().map(ObjectIndex.Entry::json).toList(), version);
    }

    /** The store's create, update and patch look up the object they change here (under its write lock). */
    @Override
    public Map.Entry<AttributeSet, String> findResource(AttributeSet attributes) {
        List<ObjectIndex.Entry> found = index.matching(StoreQuery.of(attributes));
        return found.isEmpty()
                ? null
                : Map.entry(found.get(0).key().attributes(), found.get(0).json());
    }

    /**
     * Every change of the store passes here, under its write lock: fabric8's map, the index and the
     * watchers follow it (each told as fabric8 told its own: ADDED, MODIFIED, or DELETED with the
     * object as it was). A deletion gets a version of its own, as in kube-apiserver, so that a
     * client's version tells whether it heard of it.
     */
    @Override
    public void processEvent(
            String path,
            AttributeSet pathAttributes,
            AttributeSet oldAttributes,
            GenericKubernetesResource resource,
            String newState) {
        change(path, pathAttributes, oldAttributes == null ? null : index.keyOf(oldAttributes), resource, newState);
    }

    /** {@link #processEvent} of the object stored under {@code oldKey} (null: none). */
    private void change(
            String path,
            AttributeSet pathAttributes,
            StoreKey oldKey,
            GenericKubernetesResource resource,
            String newState) {
        String existing = oldKey == null ? null : index.get(oldKey);
        JsonNode existingTree = existing == null ? null : index.parsed(oldKey);
        boolean writtenFromTree = existing != null && index.writtenFromTree(oldKey);
        if (newState == null && existing != null) {
            requestResourceVersion();
        }
        changing(path, existing, existingTree, newState, null);
        StoreKey key = apply(path, pathAttributes, oldKey, resource, newState);
        if (!Objects.equals(existing, newState)) {
            JsonNode gone = newState == null ? deletedAt(existing, existingTree) : existingTree;
            watchers.changed(
                    oldKey,
                    newState == null ? deletedJson(existing, writtenFromTree, gone) : existing,
                    gone,
                    key,
                    newState,
                    null,
                    resourceVersion);
        }
    }

    /**
     * A change is about to be applied: {@code before} (null: none) becomes {@code after} (null:
     * deleted); each tree is the JSON's, parsed, when the writer has it (else null).
     */
    void changing(String path, String before, JsonNode beforeTree, String after, JsonNode afterTree) {}

    /** Applies a change to fabric8's map and to the index, telling no watcher; returns the new key (null: deleted). */
    StoreKey apply(
            String path,
            AttributeSet pathAttributes,
            StoreKey oldKey,
            GenericKubernetesResource resource,
            String newState) {
        AttributeSet key = null;
        StoreKey stored = null;
        if (newState != null) {
            // The key fabric8 stores the object under, derived the same way.
            key = resource != null ? extractor.extract(resource) : extractor.fromResource(newState);
            if (!key.containsKey(KubernetesAttributesExtractor.PLURAL)) {
                key = AttributeSet.merge(pathAttributes, key);
            }
        }
        try {
            super.processEvent(path, pathAttributes, oldKey == null ? null : oldKey.attributes(), resource, newState);
        } finally {
            index.remove(oldKey);
            if (key != null) {
                stored = StoreKey.of(key);
                index.put(stored, newState);
            }
        }
        return stored;
    }

    /** A deleted object as its DELETED event carries it, with the deletion's version: a tree of its own. */
    private JsonNode deletedAt(String existing, JsonNode tree) {
        JsonNode stored = tree != null ? tree : CrudStore.parse(existing);
        ObjectNode metadata = JsonNodeFactory.instance.objectNode();
        metadata.setAll((ObjectNode) stored.get("metadata"));
        metadata.put("resourceVersion", String.valueOf(resourceVersion));
        ObjectNode gone = JsonNodeFactory.instance.objectNode();
        gone.setAll((ObjectNode) stored);
        gone.set("metadata", metadata);
        return gone;
    }

    /**
     * The JSON of {@code gone}, the deleted object at the deletion's version: the stored text with
     * that version in it where the text is its tree written out (the same JSON, by construction),
     * else the tree written out.
     */
    private String deletedJson(String existing, boolean writtenFromTree, JsonNode gone) {
        String json = writtenFromTree ? DeletedJson.withVersion(existing, String.valueOf(resourceVersion)) : null;
        return json != null ? json : Serialization.asJson(gone);
    }

    /** Who watches the store: a watcher in this JVM joins them as a client's watch does. */
    StoreWatchers watchers() {
        return watchers;
    }

    /** The resource version of the last change (or of the restored store). */
    long currentVersion() {
        return resourceVersion;
    }

    /** The store was restored at {@code version}: a watch from an older one is answered 410 Gone. */
    void restoredAt(long version) {
        watchers.restoredAt(version);
    }

    @Override
    public long requestResourceVersion() {
        long version = super.requestResourceVersion();
        resourceVersion = version;
        return version;
    }

    @Override
    public void reset() {
        lock.writeLock().lock();
        try {
            super.reset();
            index.clear();
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** How many objects the last lookup looked at. */
    int lastExamined() {
        return index.lastExamined();
    }

    private static boolean isWatch(String path) {
        int query = path.indexOf('?');
        return query >= 0 && path.indexOf("watch=true", query) >= 0;
    }

    /**
     * fabric8 keeps its lock and its registry of custom resources private and offers no way to
     * take them; reflection here fails at start, in every test, if a fabric8 upgrade renames them.
     */
    private static Object fabric8Field(KubernetesCrudDispatcher store, String name) {
        try {
            Field field = KubernetesCrudDispatcher.class.getDeclaredField(name);
            field.setAccessible(true);
            return field.get(store);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException(
                    "fabric8's KubernetesCrudDispatcher has no field '" + name + "' to index its"
                            + " store under (a fabric8 upgrade?): " + e,
                    e);
        }
    }
}
