package io.lahar.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.mockwebserver.crud.Attribute;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.crud.AttributeType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The store's objects, keyed as fabric8's store keys them (an {@link AttributeSet} per object) and
 * indexed by plural, plural and namespace, and plural and name, so that a request for one object
 * or for one kind in one namespace looks at those objects only rather than at the whole store.
 * The candidates an index gives are still matched against the whole query (group, version, label
 * and field requirements), so every answer is the one a scan of the store would give.
 *
 * <p>Not thread-safe: the store reads it under its read lock and changes it under its write lock.
 */
final class ObjectIndex {

    static final String PLURAL = "plural";
    static final String NAMESPACE = "namespace";
    static final String NAME = "name";

    /** One stored object: its key and its JSON. */
    record Entry(AttributeSet key, String json) {}

    /** Every object, in the order it was last written (fabric8's store re-inserts on every write). */
    private final Map<AttributeSet, Version> objects = new LinkedHashMap<>();

    private final Map<String, Set<AttributeSet>> byPlural = new HashMap<>();
    private final Map<String, Set<AttributeSet>> byPluralNamespace = new HashMap<>();
    private final Map<String, Set<AttributeSet>> byPluralName = new HashMap<>();
    /** Objects without a plural or a name, which no index can find: every query looks at them. */
    private final Set<AttributeSet> unindexed = new LinkedHashSet<>();
    /** How many objects the last query looked at, for tests that the indexes are used. */
    private int examined;

    void put(AttributeSet key, String json) {
        put(key, json, null);
    }

    /**
     * Stores {@code json} under {@code key}, with its parsed {@code tree} when the writer has it
     * (null: parsed when asked for); a writer that hands its tree wrote {@code json} from it with
     * fabric8's mapper ({@link #writtenFromTree}).
     */
    void put(AttributeSet key, String json, JsonNode tree) {
        remove(key);
        objects.put(key, new Version(json, tree, tree != null));
        String plural = value(key, PLURAL);
        String name = value(key, NAME);
        if (plural == null || name == null) {
            unindexed.add(key);
            return;
        }
        byPlural.computeIfAbsent(plural, p -> new LinkedHashSet<>()).add(key);
        byPluralName
                .computeIfAbsent(plural + "/" + name, p -> new LinkedHashSet<>())
                .add(key);
        String namespace = value(key, NAMESPACE);
        if (namespace != null) {
            byPluralNamespace
                    .computeIfAbsent(plural + "/" + namespace, p -> new LinkedHashSet<>())
                    .add(key);
        }
    }

    void remove(AttributeSet key) {
        if (key == null || objects.remove(key) == null) {
            return;
        }
        if (unindexed.remove(key)) {
            return;
        }
        String plural = value(key, PLURAL);
        drop(byPlural, plural, key);
        drop(byPluralName, plural + "/" + value(key, NAME), key);
        String namespace = value(key, NAMESPACE);
        if (namespace != null) {
            drop(byPluralNamespace, plural + "/" + namespace, key);
        }
    }

    String get(AttributeSet key) {
        Version version = objects.get(key);
        return version == null ? null : version.json;
    }

    /** The object under {@code key} parsed if it already was, else null: for a writer that can do without. */
    JsonNode parsed(AttributeSet key) {
        Version version = objects.get(key);
        return version == null ? null : version.tree;
    }

    /** Whether the JSON under {@code key} is its tree as fabric8's mapper writes it: the writer handed both. */
    boolean writtenFromTree(AttributeSet key) {
        Version version = objects.get(key);
        return version != null && version.fromTree;
    }

    /**
     * The object under {@code key} parsed, once per version: a tree that is never changed (a writer
     * builds the next version beside it), or null if there is none.
     */
    JsonNode tree(AttributeSet key) {
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

    /** The objects whose keys satisfy every attribute of {@code query}, in store order within an index. */
    List<Entry> matching(AttributeSet query) {
        List<Entry> out = new ArrayList<>();
        examined = 0;
        for (AttributeSet key : candidates(query)) {
            examined++;
            if (key.matches(query)) {
                out.add(new Entry(key, objects.get(key).json));
            }
        }
        if (!unindexed.isEmpty() && candidatesAreIndexed(query)) {
            for (AttributeSet key : unindexed) {
                examined++;
                if (key.matches(query)) {
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

    private Iterable<AttributeSet> candidates(AttributeSet query) {
        if (!candidatesAreIndexed(query)) {
            return objects.keySet();
        }
        String plural = required(query, PLURAL);
        String name = required(query, NAME);
        String namespace = required(query, NAMESPACE);
        Set<AttributeSet> found;
        if (name != null) {
            found = byPluralName.get(plural + "/" + name);
        } else if (namespace != null) {
            found = byPluralNamespace.get(plural + "/" + namespace);
        } else {
            found = byPlural.get(plural);
        }
        return found == null ? List.of() : found;
    }

    /** One version of an object: its JSON, and its tree once someone needed it. */
    private static final class Version {
        final String json;
        volatile JsonNode tree;
        final boolean fromTree;

        Version(String json, JsonNode tree, boolean fromTree) {
            this.json = json;
            this.tree = tree;
            this.fromTree = fromTree;
        }
    }

    private static boolean candidatesAreIndexed(AttributeSet query) {
        return required(query, PLURAL) != null;
    }

    /** The one value a query requires of {@code key} (equality), or null if it requires none. */
    private static String required(AttributeSet query, String key) {
        Attribute attribute = query.getAttribute(key);
        if (attribute == null
                || attribute.getType() != AttributeType.WITH
                || attribute.getValues().size() != 1) {
            return null;
        }
        return attribute.getValues().get(0).toString();
    }

    private static String value(AttributeSet key, String name) {
        Attribute attribute = key.getAttribute(name);
        return attribute == null || attribute.getValues().isEmpty()
                ? null
                : attribute.getValues().get(0).toString();
    }

    private static void drop(Map<String, Set<AttributeSet>> index, String at, AttributeSet key) {
        Set<AttributeSet> keys = index.get(at);
        if (keys != null && keys.remove(key) && keys.isEmpty()) {
            index.remove(at);
        }
    }
}
