package io.lahar.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * JSON merge patch (RFC 7386), which fabric8's store applies only approximately (a {@code null}
 * is stored instead of removing the key) and strategic merge patch, which it refuses with 415.
 *
 * <p>kubectl sends strategic merge patches for built-in kinds ({@code kubectl label},
 * {@code annotate}, {@code apply} on an existing object). We apply them as merge patches and drop
 * their {@code $}-directives: exact for maps (labels, annotations, spec fields), an
 * approximation for lists, which a strategic patch would merge by key and we replace whole.
 */
final class MergePatch {

    private MergePatch() {}

    /** A copy of {@code target} with {@code patch} merged in. */
    static JsonNode apply(JsonNode target, JsonNode patch) {
        if (!patch.isObject()) {
            return stripDirectives(patch.deepCopy());
        }
        ObjectNode result = target != null && target.isObject()
                ? ((ObjectNode) target).deepCopy()
                : ((ObjectNode) patch).objectNode();
        Iterator<Map.Entry<String, JsonNode>> fields = patch.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> field = fields.next();
            String key = field.getKey();
            JsonNode value = field.getValue();
            if (key.startsWith("$")) {
                continue;
            }
            if (value.isNull()) {
                result.remove(key);
            } else {
                result.set(key, apply(result.get(key), value));
            }
        }
        return result;
    }

    /** Strategic-merge directives ({@code $patch}, {@code $setElementOrder/...}) are not data. */
    private static JsonNode stripDirectives(JsonNode node) {
        if (node.isObject()) {
            List<String> directives = new ArrayList<>();
            node.fieldNames().forEachRemaining(name -> {
                if (name.startsWith("$")) {
                    directives.add(name);
                }
            });
            ((ObjectNode) node).remove(directives);
            node.forEach(MergePatch::stripDirectives);
        } else if (node.isArray()) {
            node.forEach(MergePatch::stripDirectives);
        }
        return node;
    }
}
