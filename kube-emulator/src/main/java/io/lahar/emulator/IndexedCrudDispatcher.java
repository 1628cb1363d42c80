package io.lahar.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.KubernetesAttributesExtractor;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesResponseComposer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.lang.reflect.Field;
import java.net.HttpURLConnection;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.regex.Pattern;

/**
 * fabric8's CRUD store with its objects indexed ({@link ObjectIndex}): fabric8 finds an object by
 * matching the request against every stored object, so each get, create, bind or delete cost as
 * much as the objects the cluster held. Here the reads (get and list), the lookups the store's
 * create, update and patch make, and deletes go through the index; writes, resource versions and
 * finalizers stay fabric8's, so clients see the same API. Watches are ours ({@link StoreWatchers}):
 * fabric8's could fail a write, and leave the index behind it, when a watcher's connection ended
 * at the moment of the write.
 */
class IndexedCrudDispatcher extends KubernetesCrudDispatcher {

    /** {@code /apis/<group>/<version>}: an empty answer there is the group's resource list, fabric8's to give. */
    private static final Pattern API_RESOURCES = Pattern.compile("^/apis/[^/?]+/[^/?]+/?(\\?.*)?$");

    /** fabric8's own lock, so that our reads and deletes exclude its writes as its own do. */
    private final ReadWriteLock lock;

    private final ObjectIndex index = new ObjectIndex();
    private final StoreWatchers watchers;
    private final KubernetesAttributesExtractor extractor;
    private volatile long resourceVersion;

    IndexedCrudDispatcher(List<CustomResourceDefinitionContext> crdContexts) {
        super(crdContexts);
        this.lock = storeLock(this);
        this.watchers = new StoreWatchers(lock, index);
        this.extractor = (KubernetesAttributesExtractor) attributeExtractor;
    }

    @Override
    public MockResponse handleGet(String path) {
        if (isWatch(path)) {
            return new MockResponse().withWebSocketUpgrade(StoreWatch.of(path, getKey(path), watchers));
        }
        AttributeSet query = getKey(path);
        List<ObjectIndex.Entry> found;
        long version;
        lock.readLock().lock();
        try {
            found = index.matching(query);
            version = resourceVersion;
        } finally {
            lock.readLock().unlock();
        }
        if (found.isEmpty()
                && !query.containsKey(KubernetesAttributesExtractor.NAME)
                && API_RESOURCES.matcher(path).matches()) {
            return super.handleGet(path);
        }
        return answer(query, found, version);
    }

    @Override
    public MockResponse handleDelete(String path) {
        AttributeSet query = getKey(path);
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

    /**
     * A status write made from an older version of the object than the stored one is refused with
     * 409, as kube-apiserver refuses it; fabric8's store checks the version of a whole-object update
     * only, so a status writer working from a stale copy silently undid another's status change.
     * Checked and written under the store's write lock, so nothing comes in between.
     */
    @Override
    public MockResponse handleUpdate(RecordedRequest request) {
        String path = request.getPath();
        if (!path.endsWith("/status")) {
            return super.handleUpdate(request);
        }
        byte[] body = request.getBody().getBytes();
        RecordedRequest again = new RecordedRequest(
                request.getHttpVersion(), request.method(), path, request.getHeaders(), new Buffer(body));
        lock.writeLock().lock();
        try {
            return staleStatus(path, new String(body, StandardCharsets.UTF_8))
                    .orElseGet(() -> super.handleUpdate(again));
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** The 409 for a status write whose resourceVersion is not the stored object's; empty if none is given. */
    private Optional<MockResponse> staleStatus(String path, String body) {
        JsonNode written;
        try {
            written = CrudStore.parse(body);
        } catch (IllegalArgumentException e) {
            return Optional.empty(); // the store answers what it makes of a body that is not JSON
        }
        String version = written.path("metadata").path("resourceVersion").asText("");
        AttributeSet key = getKey(path);
        Map.Entry<AttributeSet, String> stored = version.isEmpty() ? null : findResource(key);
        if (stored == null
                || version.equals(CrudStore.parse(stored.getValue())
                        .path("metadata")
                        .path("resourceVersion")
                        .asText())) {
            return Optional.empty();
        }
        return Optional.of(ApiStatus.conflict(
                String.valueOf(key.getAttribute(ObjectIndex.PLURAL).getValues().get(0)),
                written.path("metadata").path("name").asText(),
                "the object has been modified; please apply your changes to the latest version and try again"));
    }

    /** What fabric8's delete does: remove the object, or mark it deleted while finalizers remain. */
    private void delete(String path, AttributeSet query, ObjectIndex.Entry entry) {
        GenericKubernetesResource resource = Serialization.unmarshal(entry.json(), GenericKubernetesResource.class);
        if (resource.getFinalizers().isEmpty()) {
            processEvent(path, query, entry.key(), null, null);
        } else if (!resource.isMarkedForDeletion()) {
            resource.getMetadata().setDeletionTimestamp(LocalDateTime.now().toString());
            // A change, so a new version: an informer takes an unchanged version for no change at all.
            resource.getMetadata().setResourceVersion(String.valueOf(requestResourceVersion()));
            processEvent(path, query, entry.key(), resource, Serialization.asJson(resource));
        }
    }

    private MockResponse answer(AttributeSet query, List<ObjectIndex.Entry> found, long version) {
        MockResponse response = new MockResponse();
        if (query.containsKey(KubernetesAttributesExtractor.NAME)) {
            if (found.isEmpty()) {
                return response.setResponseCode(HttpURLConnection.HTTP_NOT_FOUND);
            }
            return response.setResponseCode(HttpURLConnection.HTTP_OK)
                    .setBody(found.get(0).json());
        }
        List<String> items = found.stream().map(ObjectIndex.Entry::json).toList();
        return response.setResponseCode(HttpURLConnection.HTTP_OK)
                .setBody(((KubernetesResponseComposer) responseComposer).compose(items, String.valueOf(version)));
    }

    /** The store's create, update and patch look up the object they change here (under its write lock). */
    @Override
    public Map.Entry<AttributeSet, String> findResource(AttributeSet attributes) {
        List<ObjectIndex.Entry> found = index.matching(attributes);
        return found.isEmpty()
                ? null
                : Map.entry(found.get(0).key(), found.get(0).json());
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
        String existing = oldAttributes == null ? null : index.get(oldAttributes);
        if (newState == null && existing != null) {
            requestResourceVersion();
        }
        changing(path, existing, newState);
        AttributeSet key = apply(path, pathAttributes, oldAttributes, resource, newState);
        if (!Objects.equals(existing, newState)) {
            watchers.changed(
                    oldAttributes, newState == null ? deletedAt(existing) : existing, key, newState, resourceVersion);
        }
    }

    /** A change is about to be applied: {@code before} (null: none) becomes {@code after} (null: deleted). */
    void changing(String path, String before, String after) {}

    /** Applies a change to fabric8's map and to the index, telling no watcher; returns the new key (null: deleted). */
    AttributeSet apply(
            String path,
            AttributeSet pathAttributes,
            AttributeSet oldAttributes,
            GenericKubernetesResource resource,
            String newState) {
        AttributeSet key = null;
        if (newState != null) {
            // The key fabric8 stores the object under, derived the same way.
            key = resource != null ? extractor.extract(resource) : extractor.fromResource(newState);
            if (!key.containsKey(KubernetesAttributesExtractor.PLURAL)) {
                key = AttributeSet.merge(pathAttributes, key);
            }
        }
        try {
            super.processEvent(path, pathAttributes, oldAttributes, resource, newState);
        } finally {
            index.remove(oldAttributes);
            if (key != null) {
                index.put(key, newState);
            }
        }
        return key;
    }

    /** A deleted object as its DELETED event carries it: with the deletion's version. */
    private String deletedAt(String existing) {
        if (existing == null) {
            return null;
        }
        GenericKubernetesResource gone = Serialization.unmarshal(existing, GenericKubernetesResource.class);
        gone.getMetadata().setResourceVersion(String.valueOf(resourceVersion));
        return Serialization.asJson(gone);
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
     * fabric8 keeps its lock private and offers no way to take it; reflection here fails at start,
     * in every test, if a fabric8 upgrade renames it.
     */
    private static ReadWriteLock storeLock(KubernetesCrudDispatcher store) {
        try {
            Field field = KubernetesCrudDispatcher.class.getDeclaredField("lock");
            field.setAccessible(true);
            return (ReadWriteLock) field.get(store);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException(
                    "fabric8's KubernetesCrudDispatcher has no field 'lock' to index its"
                            + " store under (a fabric8 upgrade?): " + e,
                    e);
        }
    }
}
