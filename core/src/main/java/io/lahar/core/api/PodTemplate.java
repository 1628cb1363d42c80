package io.lahar.core.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lahar.core.resource.Quantity;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Read-only typed view of a PodTemplateSpec kept as a JSON tree ({@code {metadata, spec}}).
 * Accessors never throw on odd shapes: a missing or wrongly typed field reads as absent.
 */
public record PodTemplate(ObjectNode node) {

    public PodTemplate {
        node = node == null ? JsonNodeFactory.instance.objectNode() : node;
    }

    public JsonNode spec() {
        return node.path("spec");
    }

    public JsonNode metadata() {
        return node.path("metadata");
    }

    public List<Container> containers() {
        return containersAt("containers");
    }

    public List<Container> initContainers() {
        return containersAt("initContainers");
    }

    private List<Container> containersAt(String field) {
        List<Container> out = new ArrayList<>();
        JsonNode list = spec().path(field);
        if (list.isArray()) {
            list.forEach(c -> out.add(new Container(c)));
        }
        return out;
    }

    public Optional<String> priorityClassName() {
        return text(spec().path("priorityClassName"));
    }

    public Optional<String> schedulerName() {
        return text(spec().path("schedulerName"));
    }

    public Optional<String> restartPolicy() {
        return text(spec().path("restartPolicy"));
    }

    public Map<String, String> nodeSelector() {
        return stringMap(spec().path("nodeSelector"));
    }

    public Map<String, String> labels() {
        return stringMap(metadata().path("labels"));
    }

    public Optional<JsonNode> affinity() {
        JsonNode a = spec().path("affinity");
        return a.isObject() ? Optional.of(a) : Optional.empty();
    }

    public List<JsonNode> tolerations() {
        List<JsonNode> out = new ArrayList<>();
        JsonNode t = spec().path("tolerations");
        if (t.isArray()) {
            t.forEach(out::add);
        }
        return out;
    }

    /**
     * The pod's effective requests as Kubernetes computes them: the sum over containers, or the
     * largest init container's when larger; a container without requests uses its limits.
     */
    public Map<String, java.math.BigDecimal> effectiveRequests() {
        Map<String, java.math.BigDecimal> sum = new LinkedHashMap<>();
        for (Container c : containers()) {
            c.effectiveRequests().forEach((k, v) -> sum.merge(k, v, java.math.BigDecimal::add));
        }
        for (Container c : initContainers()) {
            c.effectiveRequests().forEach((k, v) -> sum.merge(k, v, java.math.BigDecimal::max));
        }
        return sum;
    }

    static Optional<String> text(JsonNode n) {
        return n.isValueNode() && !n.isNull() && !n.asText().isEmpty() ? Optional.of(n.asText()) : Optional.empty();
    }

    static Map<String, String> stringMap(JsonNode n) {
        Map<String, String> out = new LinkedHashMap<>();
        if (n.isObject()) {
            n.properties()
                    .forEach(e -> out.put(
                            e.getKey(),
                            e.getValue().isValueNode()
                                    ? e.getValue().asText()
                                    : e.getValue().toString()));
        }
        return out;
    }

    /** Typed view of one container. */
    public record Container(JsonNode node) {

        public Optional<String> name() {
            return text(node.path("name"));
        }

        public Optional<String> image() {
            return text(node.path("image"));
        }

        public Map<String, String> requests() {
            return stringMap(node.path("resources").path("requests"));
        }

        public Map<String, String> limits() {
            return stringMap(node.path("resources").path("limits"));
        }

        /** Requests, defaulted from limits for resources that only have a limit (as Kubernetes does). */
        public Map<String, java.math.BigDecimal> effectiveRequests() {
            Map<String, java.math.BigDecimal> out = new LinkedHashMap<>();
            limits().forEach((k, v) -> Quantity.amountOf(v).ifPresent(q -> out.put(k, q)));
            requests().forEach((k, v) -> Quantity.amountOf(v).ifPresent(q -> out.put(k, q)));
            return out;
        }
    }
}
