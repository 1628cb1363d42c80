package io.lahar.emulator;

import io.fabric8.kubernetes.client.server.mock.KubernetesAttributesExtractor;
import io.fabric8.mockwebserver.crud.Attribute;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.crud.Key;
import io.fabric8.mockwebserver.crud.Value;
import java.util.HashMap;
import java.util.Map;

/**
 * The path of a request to the store, read as fabric8's {@link KubernetesAttributesExtractor} reads
 * it (its API group, version, plural, namespace and name), by hand: fabric8 builds a URL from it and
 * matches a backtracking regular expression, and every get, write and delete of a pod's life pays
 * for that several times. Only the paths a client of the API makes are read here ({@code
 * /api/v1/[namespaces/ns/]plural[/name[/status|scale]]}, the same under {@code /apis/group/}, of
 * plain characters, with no label or field selector); {@link #parse} gives null for any other, and
 * the store asks fabric8, so the two always agree.
 */
record ResourcePath(String group, String version, String plural, String namespace, String name) {

    private static final Key API = new Key(KubernetesAttributesExtractor.API);
    private static final Key VERSION = new Key(KubernetesAttributesExtractor.VERSION);
    private static final Key PLURAL = new Key(KubernetesAttributesExtractor.PLURAL);
    private static final Key NAMESPACE = new Key(KubernetesAttributesExtractor.NAMESPACE);
    private static final Key NAME = new Key(KubernetesAttributesExtractor.NAME);

    /** The path as fabric8's extractor reads it, or null where this does not read it (fabric8 must). */
    static ResourcePath parse(String path) {
        int q = path.indexOf('?');
        int end = q < 0 ? path.length() : q;
        if (q >= 0 && !plainQuery(path, q + 1)) {
            return null;
        }
        String group = null;
        int at;
        if (path.startsWith("/apis/")) {
            int slash = path.indexOf('/', 6);
            if (slash < 0 || slash >= end || !plain(path, 6, slash, true)) {
                return null;
            }
            group = path.substring(6, slash);
            at = slash;
        } else if (path.startsWith("/api/")) {
            at = 4;
        } else {
            return null;
        }
        // At most eight segments after the group: version, namespaces, ns, plural, name, subresource.
        String[] segments = new String[7];
        int count = 0;
        while (at < end) {
            int next = path.indexOf('/', at + 1);
            if (next < 0 || next > end) {
                next = end;
            }
            if (count == segments.length || !plain(path, at + 1, next, true)) {
                return null;
            }
            segments[count++] = path.substring(at + 1, next);
            at = next;
        }
        // The version: fabric8 admits no dot in it; a path with none is not one clients make.
        if (count < 2 || segments[0].indexOf('.') >= 0) {
            return null;
        }
        if (count >= 4 && segments[1].equals("namespaces")) {
            // fabric8 reads namespaces/<ns> as the namespace first, as a plural and name only if the rest fits no other
            // way.
            ResourcePath namespaced = tail(group, segments[0], segments[2], segments, 3, count);
            if (namespaced != null) {
                return namespaced;
            }
        }
        return tail(group, segments[0], null, segments, 1, count);
    }

    /** {@code plural[/name[/status|scale]]} from {@code segments[from..count)}, or null. */
    private static ResourcePath tail(
            String group, String version, String namespace, String[] segments, int from, int count) {
        return switch (count - from) {
            case 1 -> new ResourcePath(group, version, segments[from], namespace, null);
            case 2 -> new ResourcePath(group, version, segments[from], namespace, segments[from + 1]);
            case 3 ->
                segments[from + 2].equals("status") || segments[from + 2].equals("scale")
                        ? new ResourcePath(group, version, segments[from], namespace, segments[from + 1])
                        : null;
            default -> null;
        };
    }

    /**
     * Whether {@code path[from..to)} is a segment fabric8's expression reads whole: not empty, not a
     * dot segment, and of letters, digits, {@code -}, {@code _} and {@code .} only.
     */
    private static boolean plain(String path, int from, int to, boolean segment) {
        if (from >= to || (segment && path.charAt(from) == '.' && (to - from == 1 || path.charAt(from + 1) == '.'))) {
            return false;
        }
        for (int i = from; i < to; i++) {
            if (!nameChar(path.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    private static boolean nameChar(char c) {
        return (c >= 'a' && c <= 'z')
                || (c >= 'A' && c <= 'Z')
                || (c >= '0' && c <= '9')
                || c == '-'
                || c == '_'
                || c == '.';
    }

    /**
     * Whether the query from {@code from} adds nothing to the key and is one a URL takes as it is: no
     * label or field selector (fabric8 reads them into the key), no escape, no character a URL refuses.
     */
    private static boolean plainQuery(String path, int from) {
        for (int i = from; i < path.length(); i++) {
            char c = path.charAt(i);
            if (!(nameChar(c) || c == '=' || c == '&' || c == ':' || c == ',')) {
                return false;
            }
        }
        return path.indexOf("Selector", from) < 0;
    }

    /** What a request to this path asks the store for: the key {@link #attributes} gives, read as the store matches it. */
    StoreQuery query() {
        return StoreQuery.of(this);
    }

    /** The same path naming {@code otherName}: a create's collection naming the object it creates. */
    ResourcePath named(String otherName) {
        return new ResourcePath(group, version, plural, namespace, otherName);
    }

    /** The key fabric8's {@code getKey(path)} gives this path: a new set each time, the caller's. */
    AttributeSet attributes() {
        Map<Key, Attribute> attributes = new HashMap<>(8);
        put(attributes, API, group);
        put(attributes, VERSION, version);
        put(attributes, PLURAL, plural);
        put(attributes, NAMESPACE, namespace);
        put(attributes, NAME, name);
        return new AttributeSet(attributes);
    }

    private static void put(Map<Key, Attribute> attributes, Key key, String value) {
        if (value != null) {
            attributes.put(key, new Attribute(key, new Value(value)));
        }
    }
}
