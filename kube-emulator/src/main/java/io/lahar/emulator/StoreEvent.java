package io.lahar.emulator;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One event of the store's watch (ADDED, MODIFIED, DELETED) about one version of an object, made
 * once for every watcher it goes to: its JSON, its tree (the store's own when the writer had it,
 * else parsed once, for the first watcher that asks) and its envelope as a watch sends it (written
 * once, for the first that sends it). Neither is ever changed, so watchers on other threads share
 * them.
 */
final class StoreEvent {

    private final String type;
    private final String json;
    private volatile JsonNode tree;
    private volatile String envelope;
    /** {@code namespace/name} of its object, read once for every selecting watch it goes to. */
    private volatile String objectKey;

    /** {@code tree} is {@code json} parsed, or null to parse it when first asked for; never to be changed. */
    StoreEvent(String type, String json, JsonNode tree) {
        this.type = type;
        this.json = json;
        this.tree = tree;
    }

    /** An event the store writes whole (an ERROR): its envelope as it is, about no object. */
    static StoreEvent written(String envelope) {
        StoreEvent event = new StoreEvent("ERROR", null, null);
        event.envelope = envelope;
        return event;
    }

    String type() {
        return type;
    }

    String json() {
        return json;
    }

    /** The object parsed: shared by every watcher of this event, not to be changed. */
    JsonNode tree() {
        JsonNode parsed = tree;
        if (parsed == null) {
            parsed = CrudStore.parse(json);
            tree = parsed;
        }
        return parsed;
    }

    /**
     * {@code namespace/name} of its object (either empty where it has none): what a selecting watch
     * tells its objects apart by, the same string for each.
     */
    String objectKey() {
        String key = objectKey;
        if (key == null) {
            JsonNode metadata = tree().path("metadata");
            // Watchers' threads may read it at once: each reads the same, and any one's string will do.
            key = metadata.path("namespace").asText("") + "/"
                    + metadata.path("name").asText("");
            objectKey = key;
        }
        return key;
    }

    /** The same object as an event of another type (a selecting watch's ADDED or DELETED). */
    StoreEvent as(String otherType) {
        if (otherType.equals(type)) {
            return this;
        }
        StoreEvent other = new StoreEvent(otherType, json, tree);
        other.objectKey = objectKey;
        return other;
    }

    /** The event as a watch sends it: {@code {"type":...,"object":...}}. */
    String envelope() {
        String written = envelope;
        if (written == null) {
            // Two watchers' threads may ask at once: the lock makes it written once, as promised.
            synchronized (this) {
                written = envelope;
                if (written == null) {
                    written = "{\"type\":\"" + type + "\",\"object\":" + json + "}";
                    envelope = written;
                }
            }
        }
        return written;
    }
}
