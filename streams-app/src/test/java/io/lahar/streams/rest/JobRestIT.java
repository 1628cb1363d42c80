package io.lahar.streams.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.lahar.core.api.Manifests;
import io.lahar.streams.FreshStateDirResource;
import io.lahar.testkit.LaharInfraTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The job API end to end on the real broker and registry: submit (201 with the defaulted job,
 * 422 with every reason, 401 without the token, 413 over the size limit), list and get from the
 * jobs store, an action, the transitions, and delete.
 */
@QuarkusTest
@QuarkusTestResource(LaharInfraTestResource.class)
@QuarkusTestResource(FreshStateDirResource.class)
class JobRestIT {

    private static final String TOKEN = "lahar-test-token";

    @TestHTTPResource("/")
    URL base;

    private final HttpClient http = HttpClient.newHttpClient();
    private final String run = UUID.randomUUID().toString().substring(0, 8);

    @Test
    void submitQueryActAndDeleteAJob() throws Exception {
        String name = "rest-" + run;
        String tfJob = Files.readString(Path.of("../examples/tf-job.yaml")).replace("name: tf-job", "name: " + name);

        // Ready once Kafka Streams runs: the first command is then answered without a rebalance's wait.
        await().atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofMillis(500))
                .untilAsserted(() -> assertThat(
                                send("GET", "q/health/ready", null, null).statusCode())
                        .isEqualTo(200));
        HttpResponse<String> live = send("GET", "q/health/live", null, null);
        assertThat(live.statusCode()).as(live.body()).isEqualTo(200);
        assertThat(json(live).path("checks").findValuesAsText("name"))
                .as("the stream threads' own check among the liveness checks")
                .contains("Kafka Streams threads polling");

        assertThat(send("POST", "api/v1/jobs", tfJob, null).statusCode()).isEqualTo(401);
        assertThat(send("POST", "api/v1/jobs", tfJob, "wrong").statusCode()).isEqualTo(401);

        HttpResponse<String> created = send("POST", "api/v1/jobs", tfJob, TOKEN);
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        JsonNode admitted = json(created);
        assertThat(admitted.path("spec").path("queue").asText()).isEqualTo("default");
        assertThat(admitted.path("spec").path("maxRetry").asInt()).isEqualTo(3);
        assertThat(created.headers().firstValue("Location").orElseThrow()).endsWith("/api/v1/jobs/default/" + name);

        HttpResponse<String> rejected = send("POST", "api/v1/jobs", """
                {"apiVersion":"batch.volcano.sh/v1alpha1","kind":"Job","metadata":{"name":"bad-%s"},
                 "spec":{"minAvailable":9,"tasks":[
                   {"name":"w","replicas":2,"template":{"spec":{"containers":[{"name":"w","image":"busybox"}]}}},
                   {"name":"w","replicas":1,"template":{"spec":{"containers":[{"name":"w","image":"busybox"}]}}}]}}
                """.formatted(run), TOKEN);
        assertThat(rejected.statusCode()).as(rejected.body()).isEqualTo(422);
        List<String> paths = new ArrayList<>();
        json(rejected).path("violations").forEach(v -> paths.add(v.path("path").asText()));
        assertThat(paths)
                .contains("spec.minAvailable")
                .anySatisfy(p -> assertThat(p).startsWith("spec.tasks[1].name"));

        assertThat(send("POST", "api/v1/jobs", "kind: Queue\n", TOKEN).statusCode())
                .isEqualTo(422);

        // Reads need the token as writes do (lahar.api.read-open is false by default).
        HttpResponse<String> anonymous = send("GET", "api/v1/jobs/default/" + name, null, null);
        assertThat(anonymous.statusCode()).isEqualTo(401);
        assertThat(anonymous.headers().firstValue("WWW-Authenticate")).hasValue("Bearer realm=\"lahar\"");
        assertThat(json(anonymous).path("error").asText()).contains("reads need 'Authorization: Bearer <token>'");
        assertThat(send("GET", "api/v1/jobs", null, "wrong").statusCode()).isEqualTo(401);
        assertThat(send("GET", "api/v1/jobs/default/" + name + "/transitions", null, null)
                        .statusCode())
                .isEqualTo(401);
        assertThat(send("DELETE", "api/v1/jobs/default/" + name, null, null).statusCode())
                .isEqualTo(401);
        HttpResponse<String> one = send("GET", "api/v1/jobs/default/" + name, null, TOKEN);
        assertThat(one.statusCode()).as(one.body()).isEqualTo(200);
        assertThat(json(one).path("status").path("state").path("phase").asText())
                .isEqualTo("Pending");
        assertThat(send("GET", "api/v1/jobs/default/missing-" + run, null, TOKEN)
                        .statusCode())
                .isEqualTo(404);

        JsonNode list = json(send("GET", "api/v1/jobs?namespace=default&queue=default", null, TOKEN));
        JsonNode row = find(list, name);
        assertThat(row).as("%s in %s", name, list).isNotNull();
        assertThat(row.path("replicas").asInt()).isEqualTo(6);
        assertThat(row.path("minAvailable").asInt()).isEqualTo(6);
        assertThat(row.path("jobType").asText()).isEqualTo("Batch");
        assertThat(row.path("creationTimestamp").asText()).matches("\\d{4}-\\d{2}-\\d{2}T.*");
        assertThat(find(json(send("GET", "api/v1/jobs?namespace=other-" + run, null, TOKEN)), name))
                .isNull();
        assertThat(find(json(send("GET", "api/v1/jobs?phase=Running", null, TOKEN)), name))
                .isNull();

        assertThat(send("POST", "api/v1/jobs/default/" + name + "/actions/Explode", "", TOKEN)
                        .statusCode())
                .isEqualTo(422);
        assertThat(send("POST", "api/v1/jobs/default/" + name + "/actions/AbortJob", "", null)
                        .statusCode())
                .isEqualTo(401);
        HttpResponse<String> aborted = send("POST", "api/v1/jobs/default/" + name + "/actions/AbortJob", "", TOKEN);
        assertThat(aborted.statusCode()).as(aborted.body()).isEqualTo(200);
        assertThat(json(aborted).path("kind").asText()).isEqualTo("AbortJob");
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(json(send("GET", "api/v1/jobs/default/" + name, null, TOKEN))
                                .path("status")
                                .path("state")
                                .path("phase")
                                .asText())
                        .isIn("Aborting", "Aborted"));

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            JsonNode steps = json(send("GET", "api/v1/jobs/default/" + name + "/transitions?limit=50", null, TOKEN));
            List<String> to = new ArrayList<>();
            steps.forEach(s -> to.add(s.path("to").asText()));
            assertThat(to).startsWith("Pending").contains("Aborting");
        });

        // The client chooses the request id: the repeated delete is answered, not applied twice.
        String deleteId = UUID.randomUUID().toString();
        HttpResponse<String> deleted = send("DELETE", "api/v1/jobs/default/" + name, null, TOKEN, deleteId);
        assertThat(deleted.statusCode()).as(deleted.body()).isEqualTo(200);
        HttpResponse<String> again = send("DELETE", "api/v1/jobs/default/" + name, null, TOKEN, deleteId);
        assertThat(again.statusCode()).as(again.body()).isEqualTo(200);
        assertThat(json(again).path("requestId").asText()).isEqualTo(deleteId);
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(send("GET", "api/v1/jobs/default/" + name, null, TOKEN)
                                .statusCode())
                        .isEqualTo(404));
        assertThat(find(json(send("GET", "api/v1/jobs", null, TOKEN)), name)).isNull();
    }

    /**
     * Hostile input gets a status with its reason, never 500 or 504: replicas past the pod limit
     * and a manifest whose state would not fit a record are answered 422 with the violation, a
     * body over the limit 413 before anything is sent; a job submitted next goes through.
     */
    @Test
    void hostileJobsAreAnsweredWithTheirReasons() throws Exception {
        await().atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofMillis(500))
                .untilAsserted(() -> assertThat(send("POST", "api/v1/jobs", job("ready-" + run, 1, ""), TOKEN)
                                .statusCode())
                        .isEqualTo(201));

        HttpResponse<String> huge = send("POST", "api/v1/jobs", job("huge-" + run, Integer.MAX_VALUE, ""), TOKEN);
        assertThat(huge.statusCode()).as(huge.body()).isEqualTo(422);
        assertThat(reasons(huge))
                .contains(
                        "spec.tasks[0].replicas: must be no more than 5000, the limit of pods per job (was 2147483647)");

        HttpResponse<String> fat = send("POST", "api/v1/jobs", job("fat-" + run, 1, "x".repeat(450_000)), TOKEN);
        assertThat(fat.statusCode()).as(fat.body()).isEqualTo(422);
        assertThat(reasons(fat))
                .singleElement()
                .asString()
                .startsWith("manifest: too large: the job's state would be ");

        HttpResponse<String> tooBig = send("POST", "api/v1/jobs", job("big-" + run, 1, "x".repeat(1_000_000)), TOKEN);
        assertThat(tooBig.statusCode()).as(tooBig.body()).isEqualTo(413);
        assertThat(reasons(tooBig))
                .singleElement()
                .asString()
                .matches(
                        ": the request body is \\d+ bytes, over the limit of 921600 bytes \\(lahar.api.max-body-bytes\\).*");

        String template = """
                apiVersion: flow.volcano.sh/v1alpha1
                kind: JobTemplate
                metadata:
                  name: fat-%s
                spec:
                  tasks:
                  - name: worker
                    replicas: 1
                    template:
                      spec:
                        containers:
                        - name: c
                          image: busybox
                          args: ["%s"]
                """;
        HttpResponse<String> fatTemplate =
                send("POST", "api/v1/jobtemplates", template.formatted(run, "x".repeat(500_000)), TOKEN);
        assertThat(fatTemplate.statusCode()).as(fatTemplate.body()).isEqualTo(422);
        assertThat(reasons(fatTemplate))
                .singleElement()
                .asString()
                .startsWith("manifest: too large: the jobtemplate's state");
        assertThat(send("POST", "api/v1/jobtemplates", template.formatted(run, "x".repeat(1_000_000)), TOKEN)
                        .statusCode())
                .isEqualTo(413);

        assertThat(send("POST", "api/v1/jobs", job("after-" + run, 2, ""), TOKEN)
                        .statusCode())
                .isEqualTo(201);
    }

    /** Unknown fields as the Kubernetes API server treats them: Warn by default, Strict on request. */
    @Test
    void unknownFieldsAreWarningHeadersOrUnderStrictA422() throws Exception {
        await().atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofMillis(500))
                .untilAsserted(() -> assertThat(
                                send("GET", "q/health/ready", null, null).statusCode())
                        .isEqualTo(200));
        String warned = job("warned-" + run, 1, "").replace("  tasks:", "  minAvailabel: 1\n  tasks:");

        HttpResponse<String> strict = send("POST", "api/v1/jobs?fieldValidation=Strict", warned, TOKEN);
        assertThat(strict.statusCode()).as(strict.body()).isEqualTo(422);
        assertThat(reasons(strict)).containsExactly("spec.minAvailabel: unknown field (fieldValidation=Strict)");
        assertThat(send("POST", "api/v1/jobs?fieldValidation=Loose", warned, TOKEN)
                        .statusCode())
                .isEqualTo(400);

        HttpResponse<String> created = send("POST", "api/v1/jobs", warned, TOKEN);
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        assertThat(created.headers().allValues("Warning"))
                .containsExactly("299 - \"unknown field \\\"spec.minAvailabel\\\"\"");
        assertThat(json(created).path("spec").has("minAvailabel")).isFalse();

        HttpResponse<String> ignored =
                send("POST", "api/v1/jobs?fieldValidation=Ignore", warned.replace("warned-", "ignored-"), TOKEN);
        assertThat(ignored.statusCode()).isEqualTo(201);
        assertThat(ignored.headers().allValues("Warning")).isEmpty();
    }

    private static String job(String name, long replicas, String payload) {
        return io.lahar.streams.TestManifests.job(
                name, io.lahar.streams.TestManifests.task("worker", replicas, payload));
    }

    private static List<String> reasons(HttpResponse<String> response) throws Exception {
        List<String> out = new ArrayList<>();
        json(response)
                .path("violations")
                .forEach(v -> out.add(
                        v.path("path").asText() + ": " + v.path("message").asText()));
        return out;
    }

    private static JsonNode find(JsonNode list, String name) {
        for (JsonNode row : list) {
            if (row.path("name").asText().equals(name)) {
                return row;
            }
        }
        return null;
    }

    private HttpResponse<String> send(String method, String path, String body, String token) throws Exception {
        return send(method, path, body, token, null);
    }

    private HttpResponse<String> send(String method, String path, String body, String token, String requestId)
            throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base.toString() + path))
                .timeout(Duration.ofSeconds(60))
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .header("Content-Type", "application/yaml");
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        if (requestId != null) {
            request.header("X-Lahar-Request-Id", requestId);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode json(HttpResponse<String> response) throws Exception {
        return Manifests.jsonMapper().readTree(response.body());
    }
}
