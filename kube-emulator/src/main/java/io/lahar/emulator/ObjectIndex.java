package io.lahar.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.mockwebserver.crud.AttributeSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The store's objects, each under its {@link StoreKey} (fabric8's key, read once), and indexed by
 * plural, plural and namespace, and plural and name, so that a request for one object or for one
 * kind in one namespace looks at those objects only rather than at the whole store. The candidates
 * an index gives are still matched against the whole query ({@link StoreQuery}: group, version,
 * label and field requirements), so every answer is the one a scan of the store would give.
 *
 * <p>Not thread-safe: the store reads it under its read lock and changes it under its write lock.
 */
final class ObjectIndex {

    /** One stored object: its key and its JSON. */
    record Entry(StoreKey key, String json) {}

    /** Every object, in the order it was last written (fabric8's store re-inserts on every write). */
    private final Map<StoreKey, Version> objects = new LinkedHashMap<>();

    private final Map<String, Set<StoreKey>> byPlural = new HashMap<>();
    private final Map<String, Set<StoreKey>> byPluralNamespace = new HashMap<>();
    private final Map<String, Set<StoreKey>> byPluralName = new HashMap<>();
    /** Objects without a plural or a name, which no index can find: every query looks at them. */
    private final Set<StoreKey> unindexed = new LinkedHashSet<>();
    /** How many objects the last query looked at, for tests that the indexes are used. */
    private int examined;

    void put(StoreKey key, String json) {
        put(key, json, null);
    }

    /**
     * Stores {@code json} under {@code key}, with its parsed {@code tree} when the writer has it
     * (null: parsed when asked for); a writer that hands its tree wrote {@code json} from it with
     * fabric8's mapper ({@link #writtenFromTree}).
     */
    void put(StoreKey key, String json, JsonNode tree) {
        remove(key);
        objects.put(key, new Version(key, json, tree, tree != null));
        if (key.pluralName() == null) {
            unindexed.add(key);
            return;
        }
        byPlural.computeIfAbsent(key.plural(), p -> new LinkedHashSet<>()).add(key);
        byPluralName
                .computeIfAbsent(key.pluralName(), p -> new LinkedHashSet<>())
                .add(key);
        if (key.pluralNamespace() != null) {
            byPluralNamespace
                    .computeIfAbsent(key.pluralNamespace(), p -> new LinkedHashSet<>())
                    .add(key);
        }
    }

    void remove(StoreKey key) {
        if (key == null || objects.remove(key) == null) {
            return;
        }
        if (unindexed.remove(key)) {
            return;
        }
        drop(byPlural, key.plural(), key);
        drop(byPluralName, key.pluralName(), key);
        if (key.pluralNamespace() != null) {
            drop(byPluralNamespace, key.pluralNamespace(), key);
        }
    }

    /**
     * The key stored equal to {@code attributes} (a key fabric8 hands back), or a key of its own
     * when nothing is stored under it.
     */
    StoreKey keyOf(AttributeSet attributes) {
        StoreKey key = StoreKey.of(attributes);
        Version version = objects.get(key);
        return version == null ? key : version.key;
    }

    String get(StoreKey key) {
        Version version = objects.get(key);
        return version == null ? null : version.json;
    }

    /** The object under {@code key} parsed if it already was, else null: for a writer that can do without. */
    JsonNode parsed(StoreKey key) {
        Version version = objects.get(key);
        return version == null ? null : version.tree;
    }

    /** Whether the JSON under {@code key} is its tree as fabric8's mapper writes it: the writer handed both. */
    boolean writtenFromTree(StoreKey key) {
        Version version = objects.get(key);
        return version != null && version.fromTree;
    }

    /**
     * The object under {@code key} parsed, once per version: a tree that is never changed (a writer
     * builds the next version beside it), or null if there is none.
     */
    JsonNode tree(StoreKey key) {
        Version version = objects.get(key);
        if (version == null) {
            return null;
        }
        if (version.tree == null) {
            version.tree = CrudStore.parse(version.json);
        }
        return version.tree;
    }

    void clear() {
        objects.clear();
        byPlural.clear();
        byPluralNamespace.clear();
        byPluralName.clear();
        unindexed.clear();
    }

    /** The objects whose keys satisfy every requirement of {@code query}, in store order within an index. */
    List<Entry> matching(StoreQuery query) {
        List<Entry> out = new ArrayList<>();
        examined = 0;
        boolean indexed = query.plural() != null;
        for (StoreKey key : candidates(query, indexed)) {
            examined++;
            if (query.matches(key)) {
                out.add(new Entry(key, objects.get(key).json));
            }
        }
        if (indexed && !unindexed.isEmpty()) {
            for (StoreKey key : unindexed) {
                examined++;
                if (query.matches(key)) {
                    out.add(new Entry(key, objects.get(key).json));
                }
            }
        }
        return out;
    }

    int lastExamined() {
        return examined;
    }

    int size() {
        return objects.size();
    }

    private Iterable<StoreKey> candidates(StoreQuery query, boolean indexed) {
        if (!indexed) {
            return objects.keySet();
        }
        String plural = query.plural();
        Set<StoreKey> found;
        if (query.name() != null) {
            found = byPluralName.get(plural + "/" + query.name());
        } else if (query.namespace() != null) {
            found = byPluralNamespace.get(plural + "/" + query.namespace());
        } else {
            found = byPlural.get(plural);
        }
        return found == null ? List.of() : found;
    }

    /** One version of an object: its JSON, and its tree once someone needed it. */
    private static final class Version {
        final StoreKey key;
        final String json;
        volatile JsonNode tree;
        final boolean fromTree;

        Version(StoreKey key, String json, JsonNode tree, boolean fromTree) {
            this.key = key;
            this.json = json;
            this.tree = tree;
            this.fromTree = fromTree;
        }
    }

    private static void drop(Map<String, Set<StoreKey>> index, String at, StoreKey key) {
        Set<StoreKey> keys = index.get(at);
        if (keys != null && keys.remove(key) && keys.isEmpty()) {
            index.remove(at);
        }
    }
}
