package io.lahar.emulator;

import io.fabric8.kubernetes.client.server.mock.KubernetesAttributesExtractor;
import io.fabric8.mockwebserver.crud.Attribute;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.crud.AttributeType;
import io.fabric8.mockwebserver.crud.Key;
import io.fabric8.mockwebserver.crud.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a request asks the store for, read once: the requirements of its key (fabric8's {@link
 * AttributeSet}, or a {@link ResourcePath}'s fields, which make the same key) as a list, matched
 * against a {@link StoreKey} by looking up each required attribute by name. It answers as fabric8's
 * {@link AttributeSet#matches} answers, which scans every stored attribute for each requirement
 * through a stream: a value equals another as fabric8's {@link Value} does ({@code *} equals any),
 * an attribute another of the same key and values.
 */
final class StoreQuery {

    private static final String ANY = "*";

    /**
     * One requirement: {@code attribute} (null where it is read from a path, which only ever requires one
     * value), its key's name, and its one value where it has exactly one.
     */
    private record Requirement(String name, AttributeType type, boolean oneValue, String value, Attribute attribute) {

        boolean satisfiedBy(Attribute stored) {
            return switch (type) {
                case EXISTS -> stored != null;
                case NOT_EXISTS -> stored == null;
                case IN -> stored != null && attribute.getValues().contains(only(stored));
                case NOT_IN -> stored == null || !attribute.getValues().contains(only(stored));
                case WITHOUT -> !equalTo(stored);
                case WITH -> equalTo(stored);
            };
        }

        /** Whether {@code stored} is this attribute as fabric8 compares them: the same key (found by it) and values. */
        private boolean equalTo(Attribute stored) {
            if (stored == null) {
                return false;
            }
            List<Value> values = stored.getValues();
            if (oneValue) {
                return values.size() == 1 && sameValue(value, values.get(0).toString());
            }
            return attribute.equals(stored);
        }

        /** The one value of {@code stored}, which fabric8 requires for {@code in} and {@code notin}. */
        private Value only(Attribute stored) {
            if (stored.getValues().size() > 1) {
                throw new IllegalArgumentException(
                        "Attribute " + attribute.getKey() + " has multiple values, can't use " + type + " operation");
            }
            return stored.getValues().iterator().next();
        }
    }

    private final List<Requirement> requirements;
    /** The path it was read from, to build its attribute set when fabric8 asks for it (null: built from one). */
    private final ResourcePath path;

    private AttributeSet attributes;
    /** What it requires the plural, namespace and name to equal (null: no single value). */
    private final String plural;

    private final String namespace;
    private final String name;
    /** Whether it has a name attribute at all: fabric8 answers such a request with one object. */
    private final boolean naming;

    private StoreQuery(
            List<Requirement> requirements,
            ResourcePath path,
            AttributeSet attributes,
            String plural,
            String namespace,
            String name,
            boolean naming) {
        this.requirements = requirements;
        this.path = path;
        this.attributes = attributes;
        this.plural = plural;
        this.namespace = namespace;
        this.name = name;
        this.naming = naming;
    }

    /** The query of the key fabric8 reads from {@code path}: its fields, each required to be equal. */
    static StoreQuery of(ResourcePath path) {
        List<Requirement> requirements = new ArrayList<>(5);
        equal(requirements, KubernetesAttributesExtractor.API, path.group());
        equal(requirements, KubernetesAttributesExtractor.VERSION, path.version());
        equal(requirements, KubernetesAttributesExtractor.PLURAL, path.plural());
        equal(requirements, KubernetesAttributesExtractor.NAMESPACE, path.namespace());
        equal(requirements, KubernetesAttributesExtractor.NAME, path.name());
        return new StoreQuery(
                requirements, path, null, path.plural(), path.namespace(), path.name(), path.name() != null);
    }

    /** The query of {@code attributes}, a key of fabric8's making (a path it read, or a watch's). */
    static StoreQuery of(AttributeSet attributes) {
        Map<Key, Attribute> all = StoreKey.attributesOf(attributes);
        List<Requirement> requirements = new ArrayList<>(all.size());
        for (Attribute attribute : all.values()) {
            List<Value> values = attribute.getValues();
            boolean one = values.size() == 1;
            requirements.add(new Requirement(
                    attribute.getKey().toString(),
                    attribute.getType(),
                    one,
                    one ? values.get(0).toString() : null,
                    attribute));
        }
        return new StoreQuery(
                requirements,
                null,
                attributes,
                required(all, KubernetesAttributesExtractor.PLURAL),
                required(all, KubernetesAttributesExtractor.NAMESPACE),
                required(all, KubernetesAttributesExtractor.NAME),
                all.containsKey(new Key(KubernetesAttributesExtractor.NAME)));
    }

    /** Whether the object stored under {@code key} is one this asks for: fabric8's {@code key.matches(query)}. */
    boolean matches(StoreKey key) {
        if (!key.regular()) {
            return key.attributes().matches(attributes());
        }
        for (int i = 0, n = requirements.size(); i < n; i++) {
            Requirement requirement = requirements.get(i);
            if (!requirement.satisfiedBy(key.get(requirement.name()))) {
                return false;
            }
        }
        return true;
    }

    /** The plural it requires (one value, equal), or null: without one, no index can find its objects. */
    String plural() {
        return plural;
    }

    /** The namespace it requires, or null. */
    String namespace() {
        return namespace;
    }

    /** The name it requires, or null. */
    String name() {
        return name;
    }

    /** Whether it has a name attribute: fabric8 answers it with one object (or 404), not a list. */
    boolean naming() {
        return naming;
    }

    /** The first value of its attribute {@code attributeName} (as fabric8 prints it), or null if it has none. */
    String value(String attributeName) {
        for (Requirement requirement : requirements) {
            if (requirement.name().equals(attributeName)) {
                if (requirement.attribute() == null) {
                    return requirement.value();
                }
                List<Value> values = requirement.attribute().getValues();
                return values.isEmpty() ? null : String.valueOf(values.get(0));
            }
        }
        return null;
    }

    /** fabric8's form of this query, for its handlers: the key fabric8's {@code getKey} gives the path. */
    AttributeSet attributes() {
        AttributeSet built = attributes;
        if (built == null) {
            built = path.attributes();
            attributes = built;
        }
        return built;
    }

    @Override
    public String toString() {
        return attributes().toString();
    }

    /** fabric8's {@link Value#equals}: equal strings, or either one {@code *}. */
    static boolean sameValue(String a, String b) {
        return ANY.equals(a) || ANY.equals(b) || Objects.equals(a, b);
    }

    private static void equal(List<Requirement> requirements, String attributeName, String value) {
        if (value != null) {
            requirements.add(new Requirement(attributeName, AttributeType.WITH, true, value, null));
        }
    }

    /** The one value {@code all} requires of {@code attributeName} (equality), or null if it requires none. */
    private static String required(Map<Key, Attribute> all, String attributeName) {
        Attribute attribute = all.get(new Key(attributeName));
        if (attribute == null
                || attribute.getType() != AttributeType.WITH
                || attribute.getValues().size() != 1) {
            return null;
        }
        return attribute.getValues().get(0).toString();
    }
}
