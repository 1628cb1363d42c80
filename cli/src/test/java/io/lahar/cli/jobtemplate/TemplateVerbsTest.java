package io.lahar.cli.jobtemplate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.lahar.cli.Lahar;
import io.lahar.cli.flow.FakeApi;
import io.lahar.core.api.Manifests;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code lahar jobtemplate} against a stand-in API: the requests it sends, what it prints, how it fails. */
class TemplateVerbsTest {

    private static final String TEMPLATE = """
            apiVersion: flow.volcano.sh/v1alpha1
            kind: JobTemplate
            metadata:
              name: %s
            spec:
              minAvailable: 1
              queue: default
              tasks:
              - replicas: 2
                name: default-nginx
                template:
                  spec:
                    containers:
                    - image: nginx:1.14.2
                      name: nginx
            """;

    private static final String ADMITTED = """
            {"apiVersion":"flow.volcano.sh/v1alpha1","kind":"JobTemplate",
             "metadata":{"name":"a","namespace":"default","creationTimestamp":"2026-11-29T10:00:00Z"},
             "spec":{"minAvailable":1,"queue":"default","schedulerName":"volcano","maxRetry":3,
                     "tasks":[{"name":"default-nginx","replicas":2,"minAvailable":1},{"name":"sidecar","replicas":1}]}}""";

    private FakeApi api;

    @BeforeEach
    void start() throws Exception {
        api = new FakeApi();
    }

    @AfterEach
    void stop() {
        api.close();
    }

    @Test
    void createPostsEveryTemplateOfAMultiDocumentFile(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(
                dir.resolve("templates.yaml"), TEMPLATE.formatted("a") + "---\n" + TEMPLATE.formatted("b"));
        api.reply(201, ADMITTED).reply(201, ADMITTED.replace("\"name\":\"a\"", "\"name\":\"b\""));

        assertThat(api.lahar("jobtemplate", "create", "-f", file.toString(), "--token", "tok"))
                .isZero();

        assertThat(api.seen)
                .extracting(FakeApi.Seen::line)
                .containsExactly("POST /api/v1/jobtemplates", "POST /api/v1/jobtemplates");
        assertThat(api.seen).allSatisfy(s -> {
            assertThat(s.authorization()).isEqualTo("Bearer tok");
            assertThat(s.contentType()).isEqualTo("application/json");
        });
        JsonNode first = Manifests.jsonMapper().readTree(api.seen.get(0).body());
        assertThat(first.path("kind").asText()).isEqualTo("JobTemplate");
        assertThat(first.path("spec")
                        .path("tasks")
                        .get(0)
                        .path("template")
                        .path("spec")
                        .path("containers")
                        .get(0)
                        .path("image")
                        .asText())
                .isEqualTo("nginx:1.14.2");
        assertThat(first.path("metadata").has("namespace"))
                .as("without -n the server picks the namespace")
                .isFalse();
        assertThat(api.out.toString()).isEqualTo("Created JobTemplate: default/a\nCreated JobTemplate: default/b\n");
    }

    @Test
    void aJobFlowGivenToJobtemplateCreateIsNotSent(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(
                dir.resolve("flow.yaml"),
                "apiVersion: flow.volcano.sh/v1alpha1\nkind: JobFlow\nmetadata:\n  name: f\nspec:\n  flows:\n  - name: a\n");

        assertThat(api.lahar("jobtemplate", "create", "-f", file.toString())).isEqualTo(Lahar.EXIT_INPUT);

        assertThat(api.seen).isEmpty();
        assertThat(api.err.toString()).contains("kind JobFlow (default/f) is not a JobTemplate; not sent");
    }

    @Test
    void anInvalidTemplatePrintsEveryReason(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("t.yaml"), TEMPLATE.formatted("a"));
        api.reply(422, """
                {"error":"JobTemplate default/a rejected","violations":[{"path":"spec.minAvailable","message":"exceeds 2"},
                 {"path":"spec.tasks[0].name","message":"not a DNS-1123 label"}]}""");

        assertThat(api.lahar("jobtemplate", "create", "-f", file.toString())).isEqualTo(Lahar.EXIT_REJECTED);

        assertThat(api.err.toString())
                .contains("error: spec.minAvailable: exceeds 2")
                .contains("error: spec.tasks[0].name: not a DNS-1123 label");
        assertThat(api.out.toString()).isEmpty();
    }

    @Test
    void listPrintsTheShapeOfEachTemplate() {
        api.reply(200, """
                [{"namespace":"default","name":"a","creationTimestamp":"2026-11-29T10:00:00Z","tasks":2,"replicas":3,"minAvailable":1,"queue":"default"}]""");

        assertThat(api.lahar("jobtemplate", "list", "-A")).isZero();

        assertThat(api.seen.get(0).line()).isEqualTo("GET /api/v1/jobtemplates");
        String[] lines = api.out.toString().split("\n");
        assertThat(lines[0].split("\\s+"))
                .containsExactly("Name", "Namespace", "Queue", "Tasks", "Replicas", "Min", "Age");
        assertThat(lines[1].split("\\s+")).startsWith("a", "default", "default", "2", "3", "1");
    }

    @Test
    void templateTableAgesFromTheGivenNow() throws Exception {
        String table =
                TemplateTable.format(Manifests.jsonMapper().readTree("""
                [{"namespace":"ml","name":"t","creationTimestamp":"2026-11-29T10:00:00Z","tasks":1,"replicas":4,"minAvailable":4,"queue":"q"}]"""), Instant.parse("2026-11-29T13:30:00Z"));
        assertThat(table.lines().skip(1).findFirst().orElseThrow().split("\\s+"))
                .containsExactly("t", "ml", "q", "1", "4", "4", "3h30m");
        assertThat(TemplateTable.format(Manifests.jsonMapper().readTree("[]"), Instant.EPOCH))
                .isEqualTo("No resources found\n");
    }

    @Test
    void viewDescribesTheTemplateOrPrintsItWhole() throws Exception {
        api.reply(200, ADMITTED);

        assertThat(api.lahar("jobtemplate", "view", "a", "-n", "ml")).isZero();
        assertThat(api.seen.get(0).line()).isEqualTo("GET /api/v1/jobtemplates/ml/a");
        String text = api.out.toString();
        assertThat(text)
                .containsPattern("Min Available: +1\n")
                .containsPattern("Max Retry: +3\n")
                .containsPattern("Queue: +default\n");
        assertThat(text.lines()
                        .filter(l -> l.startsWith("sidecar"))
                        .findFirst()
                        .orElseThrow()
                        .split("\\s+"))
                .containsExactly("sidecar", "1", "1");

        assertThat(api.lahar("jobtemplate", "view", "a", "-o", "yaml")).isZero();
        JsonNode printed = Manifests.yamlMapper().readTree(api.out.toString().substring(text.length()));
        assertThat(printed).isEqualTo(Manifests.jsonMapper().readTree(ADMITTED));
    }

    @Test
    void deletingATemplateAFlowStillUsesPrintsTheReasonsAndExitsOne() {
        api.reply(422, """
                {"error":"JobTemplate default/a is in use","violations":[{"path":"metadata.name","message":"JobFlow default/test (Running) uses this template"}]}""");

        assertThat(api.lahar("jobtemplate", "delete", "a")).isEqualTo(Lahar.EXIT_REJECTED);

        assertThat(api.seen).singleElement().satisfies(s -> {
            assertThat(s.line()).isEqualTo("DELETE /api/v1/jobtemplates/default/a");
            assertThat(s.requestId()).isNotBlank();
        });
        assertThat(api.err.toString())
                .contains("error: delete JobTemplate default/a: JobTemplate default/a is in use (HTTP 422)")
                .contains("error: metadata.name: JobFlow default/test (Running) uses this template");
        assertThat(api.out.toString()).isEmpty();
    }

    @Test
    void deleteAndNotFound() {
        api.reply(
                        200,
                        "{\"requestId\":\"r\",\"kind\":\"JobTemplate\",\"namespace\":\"default\",\"name\":\"a\",\"accepted\":true}")
                .reply(404, "{\"error\":\"JobTemplate default/a not found\"}");

        assertThat(api.lahar("jobtemplate", "delete", "a")).isZero();
        assertThat(api.out.toString()).isEqualTo("Deleted JobTemplate: default/a\n");
        assertThat(api.lahar("jobtemplate", "view", "a")).isEqualTo(Lahar.EXIT_REJECTED);
        assertThat(api.err.toString()).contains("JobTemplate default/a not found (HTTP 404)");
    }
}
