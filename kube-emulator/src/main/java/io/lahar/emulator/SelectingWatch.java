package io.lahar.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashSet;
import java.util.Set;

/**
 * What a watch of the store narrowed by {@link Selectors} sends, with the apiserver's semantics for
 * objects that move in or out of the selection: an object that starts matching arrives as ADDED,
 * one that stops matching leaves as DELETED, and events about objects never selected are not sent.
 * Decided from each event's tree, the store's own or parsed once for all its watchers, and sent as
 * the event is (its envelope shared) unless its type changes. Used by one watch's sender only.
 */
final class SelectingWatch {

    private final Selectors selectors;
    /** Keys (namespace/name) of the objects this watcher currently sees. */
    private final Set<String> selected = new HashSet<>();

    SelectingWatch(Selectors selectors) {
        this.selectors = selectors;
    }

    /** What this watcher is sent for {@code event}, or null for nothing. */
    StoreEvent select(StoreEvent event) {
        String type = event.type();
        if (!(type.equals("ADDED") || type.equals("MODIFIED") || type.equals("DELETED"))) {
            return event; // ERROR: not about one object
        }
        JsonNode object = event.tree();
        String key = event.objectKey();
        if (type.equals("DELETED")) {
            // One it saw, or one deleted since the version it watches from, which it saw in a list.
            return selected.remove(key) || selectors.matches(object) ? event : null;
        }
        if (selectors.matches(object)) {
            boolean known = !selected.add(key);
            return event.as(known ? "MODIFIED" : "ADDED");
        }
        return selected.remove(key) ? event.as("DELETED") : null;
    }
}
