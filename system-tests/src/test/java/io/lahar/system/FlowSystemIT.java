package io.lahar.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.Pod;
import io.lahar.schema.JobTransition;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 6's end-to-end test on the real services: the seed's JobFlow {@code test}, a → b → {c, d}
 * → e with {@code jobRetainPolicy: delete}, and its five JobTemplates, created with the CLI
 * ({@code lahar jobtemplate create -f}, {@code lahar flow create -f}) against the streams-app's
 * REST API, so the CLI and the server are checked against one contract. The jobs run on the
 * kube-emulator's simulated nodes, placed by the scheduler-service.
 */
@ExtendWith(LaharSystemExtension.class)
class FlowSystemIT {

    static final Duration FLOW_TIMEOUT = Duration.ofSeconds(90);
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final List<String> ENTRIES = List.of("a", "b", "c", "d", "e");

    @Test
    void theSeedsFlowRunsCAndDTogetherThenEAndSucceedsAndDeletesItsJobs(LaharSystem system) throws IOException {
        Path templates = system.dir.resolve("flow-templates.yaml");
        Path flow = system.dir.resolve("flow.yaml");
        Files.writeString(templates, templates(system, "3s"));
        Files.writeString(flow, flow());
        String flowKey = system.key("test");

        LaharSystem.Cli created =
                system.lahar("jobtemplate", "create", "-f", templates.toString(), "-n", system.namespace);
        assertThat(created.exit()).as(created.toString()).isZero();
        assertThat(created.out().lines())
                .as(created.toString())
                .containsExactlyElementsOf(ENTRIES.stream()
                        .map(t -> "Created JobTemplate: " + system.namespace + "/" + t)
                        .toList());
        LaharSystem.Cli flowCreated = system.lahar("flow", "create", "-f", flow.toString(), "-n", system.namespace);
        assertThat(flowCreated.exit()).as(flowCreated.toString()).isZero();
        assertThat(flowCreated.out())
                .as(flowCreated.toString())
                .contains("Created JobFlow: " + system.namespace + "/test");

        // Every pod of the flow's jobs, as seen on the kube-emulator while it exists: pod -> node.
        Map<String, String> podNodes = new ConcurrentHashMap<>();
        Runnable observe = () -> observePods(system, podNodes);

        // While the flow runs, its templates can not be deleted (the refusal names the flow).
        awaitFlowPhase(system, flowKey, "Running", observe);
        LaharSystem.Cli refused = system.lahar("jobtemplate", "delete", "a", "-n", system.namespace);
        assertThat(refused.exit()).as(refused.toString()).isEqualTo(1);
        assertThat(refused.err())
                .as(refused.toString())
                .contains("HTTP 422")
                .contains("unfinished jobflow")
                .contains("test");

        awaitFlowPhase(system, flowKey, "Succeed", observe);
        observe.run();

        Map<String, JobTransition> running = new HashMap<>();
        Map<String, JobTransition> completed = new HashMap<>();
        Map<String, JobTransition> first = new HashMap<>();
        for (String entry : ENTRIES) {
            List<JobTransition> transitions = system.records.transitions(system.key("test-" + entry));
            assertThat(transitions)
                    .as("test-" + entry)
                    .extracting(JobTransition::getTo)
                    .startsWith("Pending")
                    .contains("Running")
                    .contains("Completed");
            first.put(entry, transitions.get(0));
            running.put(
                    entry,
                    transitions.stream()
                            .filter(t -> t.getTo().equals("Running"))
                            .findFirst()
                            .orElseThrow());
            completed.put(
                    entry,
                    transitions.stream()
                            .filter(t -> t.getTo().equals("Completed"))
                            .findFirst()
                            .orElseThrow());
        }
        // c and d run at the same time: each started running before the other completed.
        assertThat(time(running.get("c"))).isBefore(time(completed.get("d")));
        assertThat(time(running.get("d"))).isBefore(time(completed.get("c")));
        // e is created only once both are Completed; b only after a.
        assertThat(time(first.get("e")))
                .isAfterOrEqualTo(time(completed.get("c")))
                .isAfterOrEqualTo(time(completed.get("d")));
        assertThat(time(first.get("b"))).isAfterOrEqualTo(time(completed.get("a")));
        assertThat(time(first.get("c"))).isAfterOrEqualTo(time(completed.get("b")));
        assertThat(time(first.get("d"))).isAfterOrEqualTo(time(completed.get("b")));

        // Every pod ran on one of this run's simulated nodes.
        Set<String> simulatedNodes =
                system.kube().nodes().withLabel("lahar.io/pool", system.pool).list().getItems().stream()
                        .map(n -> n.getMetadata().getName())
                        .collect(Collectors.toSet());
        assertThat(podNodes.keySet())
                .as("the pods seen bound")
                .containsExactlyInAnyOrderElementsOf(ENTRIES.stream()
                        .map(e -> "test-" + e + "-default-nginx-0")
                        .toList());
        assertThat(podNodes.values()).allSatisfy(node -> assertThat(node).isIn(simulatedNodes));

        // jobRetainPolicy: delete — the jobs are gone: tombstones on lahar.job-status, no pods left.
        try {
            await().atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> ENTRIES.stream().allMatch(e -> system.records.deleted(system.key("test-" + e))));
        } catch (ConditionTimeoutException e) {
            throw new AssertionError(
                    "the flow's jobs were not all deleted: "
                            + ENTRIES.stream()
                                    .filter(x -> !system.records.deleted(system.key("test-" + x)))
                                    .toList()
                            + system.logs(),
                    e);
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> flowPods(system).isEmpty());
        assertThat(system.records.flowPhase(flowKey)).isEqualTo("Succeed");

        LaharSystem.Cli view = system.lahar("flow", "view", "test", "-n", system.namespace);
        assertThat(view.exit()).as(view.toString()).isZero();
        assertThat(view.out())
                .as(view.toString())
                .containsPattern("(?m)^Phase:\\s+Succeed$")
                .containsPattern("(?m)^Job Retain Policy:\\s+delete$");
        for (String entry : ENTRIES) {
            assertThat(view.out()).as(view.toString()).containsPattern("(?m)^" + entry + "\\s+test-" + entry + "\\s+");
        }
        LaharSystem.Cli list = system.lahar("flow", "list", "-n", system.namespace);
        assertThat(list.exit()).as(list.toString()).isZero();
        assertThat(list.out())
                .as(list.toString())
                .containsPattern("(?m)^test\\s+" + system.namespace + "\\s+Succeed\\s+5\\s+");

        // Finished now: the template may go.
        LaharSystem.Cli deleted = system.lahar("jobtemplate", "delete", "e", "-n", system.namespace);
        assertThat(deleted.exit()).as(deleted.toString()).isZero();
        assertThat(deleted.out()).contains("Deleted JobTemplate: " + system.namespace + "/e");
    }

    /** The seed's templates (examples/jobflow-templates.yaml) with this run's scheduler and a simulated run time. */
    static String templates(LaharSystem system, String duration) throws IOException {
        List<String> documents = new ArrayList<>();
        try (var parser =
                YAML.getFactory().createParser(example("jobflow-templates.yaml").toFile())) {
            for (var it = YAML.readValues(parser, ObjectNode.class); it.hasNext(); ) {
                ObjectNode template = it.next();
                ObjectNode spec = (ObjectNode) template.path("spec");
                spec.put("schedulerName", system.schedulerName);
                for (JsonNode task : spec.path("tasks")) {
                    ObjectNode metadata = (ObjectNode) task.path("template").path("metadata");
                    metadata.putObject("annotations").put("lahar.io/sim-duration", duration);
                }
                documents.add(YAML.writeValueAsString(template));
            }
        }
        assertThat(documents).hasSize(5);
        return String.join("", documents); // each starts with "---"
    }

    /** The seed's JobFlow (examples/jobflow.yaml) without its namespace: {@code -n} gives this run's. */
    static String flow() throws IOException {
        ObjectNode flow = (ObjectNode) YAML.readTree(example("jobflow.yaml").toFile());
        ((ObjectNode) flow.path("metadata")).remove("namespace");
        return YAML.writeValueAsString(flow);
    }

    static Path example(String file) {
        return ProjectRoot.DIR.resolve("examples").resolve(file);
    }

    private static List<Pod> flowPods(LaharSystem system) {
        return system.kube()
                .pods()
                .inNamespace(system.namespace)
                .withLabelIn(
                        "volcano.sh/job-name",
                        ENTRIES.stream().map(e -> "test-" + e).toArray(String[]::new))
                .list()
                .getItems();
    }

    private static void observePods(LaharSystem system, Map<String, String> podNodes) {
        for (Pod pod : flowPods(system)) {
            if (pod.getSpec().getNodeName() != null
                    && !pod.getSpec().getNodeName().isEmpty()) {
                podNodes.put(pod.getMetadata().getName(), pod.getSpec().getNodeName());
            }
        }
    }

    private static Instant time(JobTransition transition) {
        return transition.getTime();
    }

    private static void awaitFlowPhase(LaharSystem system, String key, String phase, Runnable whileWaiting) {
        try {
            await().atMost(FLOW_TIMEOUT).pollInterval(Duration.ofMillis(200)).until(() -> {
                whileWaiting.run();
                return system.records.flowPhase(key).equals(phase);
            });
        } catch (ConditionTimeoutException e) {
            throw new AssertionError(
                    "the flow " + key + " did not reach " + phase + " within " + FLOW_TIMEOUT
                            + "; it is " + system.records.flowPhase(key) + ", its status: "
                            + system.records
                                    .flowStatus(key)
                                    .map(Object::toString)
                                    .orElse("none") + system.logs(),
                    e);
        }
    }
}
