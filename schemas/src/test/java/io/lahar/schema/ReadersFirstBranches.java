package io.lahar.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.avro.Schema;

/**
 * The union branches added since a release that are rolled out readers first (docs/topics.md,
 * "Evolution"; decision 045): a reader of that release cannot read a record of the new branch, so
 * the branch is exempt from the FORWARD check against the releases that lack it, and from nothing
 * else. Each entry names its schema, its branch and why the contract needs it; the readers of the
 * topic are deployed before its writers use the branch.
 */
final class ReadersFirstBranches {

    /** One union branch rolled out readers first. */
    record Branch(String schema, String branch, String reason) {}

    static final List<Branch> ALL = List.of(
            new Branch(
                    "io.lahar.schema.PodIntent",
                    "io.lahar.schema.EnsureNetworkPolicy",
                    "the svc plugin's NetworkPolicy, which Volcano creates and the bridge could not (issue 36);"
                            + " readers: k8s-bridge, scheduler-service; writer: streams-app"),
            new Branch(
                    "io.lahar.schema.PodIntent",
                    "io.lahar.schema.EnsurePersistentVolumeClaim",
                    "the claims of a Job's inline volumes (volumes[].volumeClaim), which Volcano's controller"
                            + " creates and the bridge could not (issue 36); readers: k8s-bridge, scheduler-service;"
                            + " writer: streams-app"));

    private static final ObjectMapper JSON = new ObjectMapper();

    private ReadersFirstBranches() {}

    /** The entries of {@code schema}. */
    static List<Branch> of(String schema) {
        return ALL.stream().filter(b -> b.schema().equals(schema)).toList();
    }

    /**
     * {@code current} as a writer that uses none of the readers-first branches {@code released}
     * lacks: what the FORWARD check holds a reader of that release to.
     */
    static Schema withoutBranchesLackedBy(Schema current, Schema released) {
        List<String> drop = new ArrayList<>();
        for (Branch b : of(current.getFullName())) {
            if (!unionBranches(released).contains(b.branch())) {
                drop.add(b.branch());
            }
        }
        if (drop.isEmpty()) {
            return current;
        }
        JsonNode tree = read(current.toString());
        for (String branch : drop) {
            if (!removeBranch(tree, current.getNamespace(), branch)) {
                throw new AssertionError(branch + " is not a union branch of " + current.getFullName());
            }
        }
        return new Schema.Parser().parse(tree.toString());
    }

    /** Removes the record {@code branch} from the union it is a branch of; whether it found it. */
    private static boolean removeBranch(JsonNode node, String namespace, String branch) {
        if (node instanceof ObjectNode o) {
            String ns = o.path("namespace").asText(namespace);
            boolean found = false;
            for (Map.Entry<String, JsonNode> e : o.properties()) {
                found |= removeBranch(e.getValue(), ns, branch);
            }
            return found;
        }
        if (node instanceof ArrayNode a) {
            for (int i = 0; i < a.size(); i++) {
                JsonNode item = a.get(i);
                if (item.isObject()
                        && "record".equals(item.path("type").asText())
                        && fullName(item, namespace).equals(branch)) {
                    a.remove(i);
                    return true;
                }
            }
            boolean found = false;
            for (JsonNode item : a) {
                found |= removeBranch(item, namespace, branch);
            }
            return found;
        }
        return false;
    }

    /** The full names of the named types that are branches of a union anywhere in {@code schema}. */
    static Set<String> unionBranches(Schema schema) {
        Set<String> out = new TreeSet<>();
        collect(schema, new HashSet<>(), out);
        return out;
    }

    private static void collect(Schema schema, Set<String> seen, Set<String> branches) {
        switch (schema.getType()) {
            case RECORD -> {
                if (seen.add(schema.getFullName())) {
                    schema.getFields().forEach(f -> collect(f.schema(), seen, branches));
                }
            }
            case UNION ->
                schema.getTypes().forEach(t -> {
                    if (t.getType() == Schema.Type.RECORD || t.getType() == Schema.Type.ENUM) {
                        branches.add(t.getFullName());
                    }
                    collect(t, seen, branches);
                });
            case ARRAY -> collect(schema.getElementType(), seen, branches);
            case MAP -> collect(schema.getValueType(), seen, branches);
            default -> {}
        }
    }

    private static String fullName(JsonNode record, String namespace) {
        String name = record.path("name").asText();
        if (name.contains(".")) {
            return name;
        }
        String ns = record.path("namespace").asText(namespace);
        return ns == null || ns.isEmpty() ? name : ns + "." + name;
    }

    private static JsonNode read(String json) {
        try {
            return JSON.readTree(json);
        } catch (Exception e) {
            throw new IllegalStateException("a schema is JSON", e);
        }
    }
}
