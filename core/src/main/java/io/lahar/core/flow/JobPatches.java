package io.lahar.core.flow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lahar.core.api.JobSpec;
import io.lahar.core.api.Manifests;
import io.lahar.core.api.Patch;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Applies a flow's {@code patch} to its template's spec, as a strategic merge: objects merge
 * field by field, the lists {@code tasks}, {@code containers} and {@code initContainers} merge
 * their elements by {@code name} (an unknown name is appended), other lists and values are
 * replaced, and a JSON null removes a field.
 */
public final class JobPatches {

    /** Lists whose elements are matched by name, as Kubernetes' strategic merge keys them. */
    private static final Set<String> BY_NAME = Set.of("tasks", "containers", "initContainers");

    private JobPatches() {}

    /**
     * The patched spec. The template is never modified.
     *
     * @throws io.lahar.core.api.ManifestException when the result is not a JobSpec (a field of the wrong type)
     */
    public static JobSpec apply(JobSpec template, Patch patch) {
        if (patch == null || patch.spec() == null) {
            return template;
        }
        ObjectNode tree = Manifests.toTree(template);
        merge(tree, patch.spec());
        return Manifests.convert(tree, JobSpec.class);
    }

    static void merge(ObjectNode target, ObjectNode patch) {
        List<String> fields = new ArrayList<>();
        patch.fieldNames().forEachRemaining(fields::add);
        for (String field : fields) {
            JsonNode value = patch.get(field);
            JsonNode current = target.get(field);
            if (value.isNull()) {
                target.remove(field);
            } else if (value.isObject() && current != null && current.isObject()) {
                merge((ObjectNode) current, (ObjectNode) value);
            } else if (value.isArray() && current != null && current.isArray() && BY_NAME.contains(field)) {
                mergeByName((ArrayNode) current, (ArrayNode) value);
            } else {
                target.set(field, value.deepCopy());
            }
        }
    }

    private static void mergeByName(ArrayNode target, ArrayNode patch) {
        for (JsonNode p : patch) {
            JsonNode match = null;
            String name = p.path("name").asText("");
            if (p.isObject() && !name.isEmpty()) {
                for (JsonNode t : target) {
                    if (t.isObject() && name.equals(t.path("name").asText(""))) {
                        match = t;
                        break;
                    }
                }
            }
            if (match != null) {
                merge((ObjectNode) match, (ObjectNode) p);
            } else {
                target.add(p.deepCopy());
            }
        }
    }
}
