package io.lahar.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.lahar.core.util.HumanDuration;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Server-side printing: the {@code meta.k8s.io/v1 Table} a real apiserver returns when kubectl asks
 * for {@code as=Table}. Without it kubectl shows only names; with it {@code kubectl get pods}
 * shows READY, STATUS and NODE, and {@code kubectl get vcjob,pg} the columns Volcano's CRDs print.
 * Kinds without their own columns get NAME and AGE, as CRDs without printer columns do.
 */
final class TableView {

    /** One printed column: its header, its type for kubectl, and how a cell is read from an object. */
    private record Column(String name, String type, int priority, Function<JsonNode, Object> cell) {}

    private final ApiDiscovery discovery;
    private final Clock clock;

    TableView(ApiDiscovery discovery, Clock clock) {
        this.discovery = discovery;
        this.clock = clock;
    }

    /**
     * The table for the object or list at {@code path}, or empty if {@code path} is not a resource
     * this emulator serves (then the plain JSON goes back, which kubectl can also print).
     */
    Optional<String> render(String path, String body, boolean includeObject) {
        Optional<ApiResource> resource = discovery.resourceAt(path);
        if (resource.isEmpty()) {
            return Optional.empty();
        }
        JsonNode doc = CrudStore.parse(body);
        List<JsonNode> objects = new ArrayList<>();
        if (doc.has("items") && doc.get("items").isArray()) {
            doc.get("items").forEach(objects::add);
        } else if (doc.has("metadata")) {
            objects.add(doc);
        } else {
            return Optional.empty();
        }
        List<Column> columns = columnsFor(resource.get());
        ObjectNode table = Serialization.jsonMapper()
                .createObjectNode()
                .put("kind", "Table")
                .put("apiVersion", "meta.k8s.io/v1");
        table.putObject("metadata")
                .put(
                        "resourceVersion",
                        doc.path("metadata").path("resourceVersion").asText(""));
        ArrayNode definitions = table.putArray("columnDefinitions");
        for (Column column : columns) {
            definitions
                    .addObject()
                    .put("name", column.name())
                    .put("type", column.type())
                    .put("format", column.name().equals("Name") ? "name" : "")
                    .put("description", column.name())
                    .put("priority", column.priority());
        }
        ArrayNode rows = table.putArray("rows");
        for (JsonNode object : objects) {
            ObjectNode row = rows.addObject();
            ArrayNode cells = row.putArray("cells");
            for (Column column : columns) {
                cells.addPOJO(column.cell().apply(object));
            }
            row.set("object", includeObject ? object : partialMetadata(object));
        }
        return Optional.of(table.toString());
    }

    private List<Column> columnsFor(ApiResource resource) {
        Column name = new Column(
                "Name", "string", 0, o -> o.path("metadata").path("name").asText());
        Column age = new Column("Age", "string", 0, this::age);
        String key = resource.group() + "/" + resource.plural();
        return switch (key) {
            case "/pods" ->
                List.of(
                        name,
                        new Column("Ready", "string", 0, TableView::podReady),
                        new Column("Status", "string", 0, TableView::podStatus),
                        new Column("Restarts", "integer", 0, TableView::podRestarts),
                        age,
                        new Column("IP", "string", 1, o -> text(o, "status", "podIP")),
                        new Column("Node", "string", 1, o -> text(o, "spec", "nodeName")),
                        new Column("Nominated Node", "string", 1, o -> text(o, "status", "nominatedNodeName")),
                        new Column("Readiness Gates", "string", 1, o -> "<none>"));
            case "/nodes" ->
                List.of(
                        name,
                        new Column("Status", "string", 0, TableView::nodeStatus),
                        new Column("Roles", "string", 0, TableView::nodeRoles),
                        age,
                        new Column("Version", "string", 0, o -> text(o, "status", "nodeInfo", "kubeletVersion")),
                        new Column("Internal-IP", "string", 1, TableView::nodeInternalIp),
                        new Column("CPU", "string", 1, o -> text(o, "status", "allocatable", "cpu")),
                        new Column("Memory", "string", 1, o -> text(o, "status", "allocatable", "memory")),
                        new Column("GPU", "string", 1, o -> text(o, "status", "allocatable", "nvidia.com/gpu")));
            // kubectl's columns for events, so `kubectl get events` says what happened to what.
            case "/events" ->
                List.of(
                        new Column("Last Seen", "string", 0, this::lastSeen),
                        new Column("Type", "string", 0, o -> text(o, "type")),
                        new Column("Reason", "string", 0, o -> text(o, "reason")),
                        new Column(
                                "Object",
                                "string",
                                0,
                                o -> text(o, "involvedObject", "kind").toLowerCase(java.util.Locale.ROOT) + "/"
                                        + text(o, "involvedObject", "name")),
                        new Column("Message", "string", 0, o -> text(o, "message")));
            case "/namespaces" ->
                List.of(name, new Column("Status", "string", 0, o -> text(o, "status", "phase")), age);
            // The printer columns of Volcano's CRDs.
            case "batch.volcano.sh/jobs" ->
                List.of(
                        name,
                        new Column("STATUS", "string", 0, o -> text(o, "status", "state", "phase")),
                        new Column("minAvailable", "integer", 0, o -> number(o, "status", "minAvailable")),
                        new Column("RUNNINGS", "integer", 0, o -> number(o, "status", "running")),
                        age,
                        new Column("QUEUE", "string", 1, o -> text(o, "spec", "queue")));
            case "scheduling.volcano.sh/podgroups" ->
                List.of(
                        name,
                        new Column("STATUS", "string", 0, o -> text(o, "status", "phase")),
                        new Column("MINMEMBER", "integer", 0, o -> number(o, "spec", "minMember")),
                        new Column("RUNNINGS", "integer", 0, o -> number(o, "status", "running")),
                        age,
                        new Column("QUEUE", "string", 1, o -> text(o, "spec", "queue")));
            case "scheduling.volcano.sh/queues" ->
                List.of(
                        name,
                        new Column("STATE", "string", 0, o -> text(o, "status", "state")),
                        new Column("WEIGHT", "integer", 0, o -> number(o, "spec", "weight")),
                        age,
                        new Column("PARENT", "string", 1, o -> text(o, "spec", "parent")));
            case "flow.volcano.sh/jobflows" ->
                List.of(name, new Column("STATUS", "string", 0, o -> text(o, "status", "state", "phase")), age);
            default -> List.of(name, age);
        };
    }

    private static ObjectNode partialMetadata(JsonNode object) {
        ObjectNode partial = Serialization.jsonMapper()
                .createObjectNode()
                .put("kind", "PartialObjectMetadata")
                .put("apiVersion", "meta.k8s.io/v1");
        partial.set("metadata", object.path("metadata").deepCopy());
        return partial;
    }

    private static String text(JsonNode object, String... path) {
        JsonNode node = object;
        for (String step : path) {
            node = node.path(step);
        }
        return node.isMissingNode() || node.isNull() ? "" : node.asText();
    }

    private static Object number(JsonNode object, String... path) {
        JsonNode node = object;
        for (String step : path) {
            node = node.path(step);
        }
        return node.isNumber() ? node.numberValue() : null;
    }

    private static String podReady(JsonNode pod) {
        int total = pod.path("spec").path("containers").size();
        int ready = 0;
        for (JsonNode status : pod.path("status").path("containerStatuses")) {
            if (status.path("ready").asBoolean(false)) {
                ready++;
            }
        }
        return ready + "/" + total;
    }

    /** kubectl's STATUS: the pod's reason, else a container's waiting/terminated reason, else the phase. */
    private static String podStatus(JsonNode pod) {
        if (!pod.path("metadata").path("deletionTimestamp").asText("").isEmpty()) {
            return "Terminating";
        }
        String reason = text(pod, "status", "reason");
        if (!reason.isEmpty()) {
            return reason;
        }
        String phase = text(pod, "status", "phase");
        for (JsonNode status : pod.path("status").path("containerStatuses")) {
            JsonNode waiting = status.path("state").path("waiting");
            if (waiting.has("reason")) {
                return waiting.get("reason").asText();
            }
            JsonNode terminated = status.path("state").path("terminated");
            if (terminated.has("reason")) {
                reason = terminated.get("reason").asText();
            } else if (terminated.has("exitCode")) {
                reason = "ExitCode:" + terminated.get("exitCode").asInt();
            }
        }
        if (!reason.isEmpty()) {
            return reason;
        }
        return phase.isEmpty() ? "Pending" : phase;
    }

    private static int podRestarts(JsonNode pod) {
        int restarts = 0;
        for (JsonNode status : pod.path("status").path("containerStatuses")) {
            restarts += status.path("restartCount").asInt(0);
        }
        return restarts;
    }

    private static String nodeStatus(JsonNode node) {
        String ready = "Unknown";
        for (JsonNode condition : node.path("status").path("conditions")) {
            if ("Ready".equals(condition.path("type").asText())) {
                ready = "True".equals(condition.path("status").asText()) ? "Ready" : "NotReady";
            }
        }
        return node.path("spec").path("unschedulable").asBoolean(false) ? ready + ",SchedulingDisabled" : ready;
    }

    private static String nodeRoles(JsonNode node) {
        List<String> roles = new ArrayList<>();
        node.path("metadata").path("labels").fieldNames().forEachRemaining(label -> {
            if (label.startsWith("node-role.kubernetes.io/")) {
                roles.add(label.substring("node-role.kubernetes.io/".length()));
            }
        });
        return roles.isEmpty() ? "<none>" : roles.stream().sorted().collect(Collectors.joining(","));
    }

    private static String nodeInternalIp(JsonNode node) {
        for (JsonNode address : node.path("status").path("addresses")) {
            if ("InternalIP".equals(address.path("type").asText())) {
                return address.path("address").asText();
            }
        }
        return "<none>";
    }

    private String age(JsonNode object) {
        return since(object.path("metadata").path("creationTimestamp").asText(""));
    }

    /** An event's last time it was seen, else its creation. */
    private String lastSeen(JsonNode event) {
        String last = text(event, "lastTimestamp");
        return since(last.isEmpty() ? text(event, "metadata", "creationTimestamp") : last);
    }

    private String since(String created) {
        if (created.isEmpty()) {
            return "<unknown>";
        }
        try {
            return HumanDuration.of(Duration.between(Instant.parse(created), Instant.now(clock)));
        } catch (DateTimeParseException e) {
            return "<invalid>";
        }
    }
}
