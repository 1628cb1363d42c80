package io.lahar.emulator;

import io.fabric8.kubernetes.client.server.mock.KubernetesAttributesExtractor;
import io.fabric8.mockwebserver.crud.Attribute;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.crud.Key;
import io.fabric8.mockwebserver.crud.Value;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The key one object is stored under, read once when the object is written. fabric8's key (an
 * {@link AttributeSet}) hashes every attribute, its key and its values again at every lookup and
 * finds an attribute by scanning them all; the store looked its objects up by it on every request
 * and matched every candidate against the request with it. Here a hash of its own is kept (see
 * {@link #mix}), and the attributes are held by name, so that a {@link StoreQuery} finds each one
 * it asks about with one lookup of a string. Two keys are equal when their attribute sets are
 * (fabric8's identity of a stored object: the same name in another group or version is another
 * object); fabric8's own map and handlers are still handed the attribute set.
 */
final class StoreKey {

    /**
     * fabric8 keeps an attribute set's attributes package-private and offers no way to list them;
     * this read fails when the class loads, in every test, if a fabric8 upgrade renames the field.
     */
    private static final VarHandle ATTRIBUTES;

    static {
        try {
            ATTRIBUTES = MethodHandles.privateLookupIn(AttributeSet.class, MethodHandles.lookup())
                    .findVarHandle(AttributeSet.class, "attributes", Map.class);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException(
                    "fabric8's AttributeSet has no field 'attributes' to read its keys from (a fabric8 upgrade?): " + e,
                    e);
        }
    }

    private final AttributeSet attributes;
    private final int hash;
    private final Map<String, Attribute> byName;
    /**
     * Whether each attribute is held under its own key, as fabric8 and this store always build
     * keys; a key that is not is matched by fabric8's own code ({@link StoreQuery#matches}).
     */
    private final boolean regular;

    private final String plural;
    /** The index entries it is found under: {@code plural/name}, {@code plural/namespace} (null: none). */
    private final String pluralName;

    private final String pluralNamespace;

    private StoreKey(AttributeSet attributes) {
        this.attributes = attributes;
        Map<Key, Attribute> all = attributesOf(attributes);
        Map<String, Attribute> named = new HashMap<>(Math.max(4, all.size() * 2));
        boolean same = true;
        int sum = 0;
        for (Map.Entry<Key, Attribute> entry : all.entrySet()) {
            Attribute attribute = entry.getValue();
            same &= attribute != null && entry.getKey().equals(attribute.getKey());
            String attributeName = entry.getKey().toString();
            named.put(attributeName, attribute);
            sum += mix(31 * attributeName.hashCode() + (attribute == null ? 0 : valuesHash(attribute.getValues())));
        }
        this.byName = named;
        this.regular = same;
        this.hash = sum;
        this.plural = first(KubernetesAttributesExtractor.PLURAL);
        String namespace = first(KubernetesAttributesExtractor.NAMESPACE);
        String name = first(KubernetesAttributesExtractor.NAME);
        this.pluralName = plural == null || name == null ? null : plural + "/" + name;
        this.pluralNamespace = pluralName == null || namespace == null ? null : plural + "/" + namespace;
    }

    /** The key of an object stored under {@code attributes}, which must not change afterwards (fabric8's never do). */
    static StoreKey of(AttributeSet attributes) {
        return new StoreKey(attributes);
    }

    /** The attributes of {@code set}, by key: fabric8's own map, not to be changed. */
    @SuppressWarnings("unchecked")
    static Map<Key, Attribute> attributesOf(AttributeSet set) {
        return (Map<Key, Attribute>) ATTRIBUTES.get(set);
    }

    /** fabric8's form of this key, for fabric8's map and handlers. */
    AttributeSet attributes() {
        return attributes;
    }

    /** The attribute named {@code attributeName}, or null. */
    Attribute get(String attributeName) {
        return byName.get(attributeName);
    }

    boolean regular() {
        return regular;
    }

    /** Where the index files it: {@code plural/name}, or null (no plural or no name: every query looks at it). */
    String pluralName() {
        return pluralName;
    }

    /** {@code plural/namespace} where it has both besides a name, else null. */
    String pluralNamespace() {
        return pluralNamespace;
    }

    String plural() {
        return plural;
    }

    /**
     * A hash of one attribute, mixed so that a sum of them spreads: fabric8's hash of a key (a sum of
     * its attributes' hashes, each its key's and its values' hashes combined linearly) gives the keys
     * of objects that differ by name alone the same hash often enough that maps of them degrade into
     * trees of equal hashes, each lookup comparing whole keys. Equal keys still hash alike (fabric8's
     * {@code *}, equal to any value, aside, as in fabric8's own hash).
     */
    private static int mix(int h) {
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        return h ^ (h >>> 16);
    }

    private static int valuesHash(List<Value> values) {
        int h = 1;
        for (Value value : values) {
            h = 31 * h + Objects.hashCode(value.toString());
        }
        return h;
    }

    /** The first value of the attribute {@code attributeName} (as fabric8 prints it), or null if it has none. */
    private String first(String attributeName) {
        Attribute attribute = byName.get(attributeName);
        return attribute == null || attribute.getValues().isEmpty()
                ? null
                : attribute.getValues().get(0).toString();
    }

    @Override
    public boolean equals(Object o) {
        return this == o
                || (o instanceof StoreKey other
                        && hash == other.hash
                        && (attributes == other.attributes || attributes.equals(other.attributes)));
    }

    @Override
    public int hashCode() {
        return hash;
    }

    @Override
    public String toString() {
        return attributes.toString();
    }
}
