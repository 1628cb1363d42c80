package io.lahar.streams.rest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lahar.streams.FreshStateDirResource;
import io.lahar.testkit.LaharInfraTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@code /q/openapi}: every operation of the REST resources is described, and job submit, action,
 * list and the 422 violation body have their examples; Swagger UI is off outside dev mode unless
 * enabled.
 */
@QuarkusTest
@QuarkusTestResource(LaharInfraTestResource.class)
@QuarkusTestResource(FreshStateDirResource.class)
class OpenApiIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> METHODS = Set.of("get", "post", "put", "delete", "patch");

    @TestHTTPResource("/")
    URI root;

    private final HttpClient http = HttpClient.newHttpClient();

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(root.resolve(path)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void theApiIsDescribedWithExamples() throws Exception {
        HttpResponse<String> response = get("q/openapi?format=json");
        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode api = JSON.readTree(response.body());
        JsonNode paths = api.path("paths");

        // Every operation the resources serve, each with a summary and its answers.
        List<String> operations = new ArrayList<>();
        paths.properties()
                .forEach(p -> p.getValue().properties().forEach(op -> {
                    if (METHODS.contains(op.getKey())) {
                        operations.add(op.getKey().toUpperCase() + " " + p.getKey());
                    }
                }));
        assertThat(operations)
                .contains(
                        "GET /api/v1/jobs",
                        "POST /api/v1/jobs",
                        "GET /api/v1/jobs/{namespace}/{name}",
                        "DELETE /api/v1/jobs/{namespace}/{name}",
                        "POST /api/v1/jobs/{namespace}/{name}/actions/{action}",
                        "GET /api/v1/jobs/{namespace}/{name}/transitions",
                        "GET /api/v1/jobs/{namespace}/{name}/pods",
                        "POST /api/v1/jobflows",
                        "GET /api/v1/jobtemplates");
        JsonNode submit = paths.path("/api/v1/jobs").path("post");
        assertThat(submit.path("summary").asText()).isEqualTo("Submit a Volcano Job");
        assertThat(submit.path("parameters").toString())
                .as("the scanned header parameter, merged")
                .contains("X-Lahar-Request-Id");

        JsonNode examples = api.path("components").path("examples");
        assertThat(submit.path("requestBody")
                        .path("content")
                        .path("application/yaml")
                        .path("examples")
                        .path("yaml")
                        .path("$ref")
                        .asText())
                .isEqualTo("#/components/examples/jobYaml");
        assertThat(examples.path("jobYaml").path("value").asText()).contains("kind: Job");
        assertThat(submit.path("responses")
                        .path("201")
                        .path("content")
                        .path("application/json")
                        .path("examples")
                        .path("admitted")
                        .path("$ref")
                        .asText())
                .endsWith("/admittedJob");
        JsonNode violation = examples.path("violations").path("value");
        assertThat(violation.path("error").asText()).isEqualTo("SubmitJob rejected");
        assertThat(violation.path("violations").get(0).path("path").asText()).isEqualTo("spec.minAvailable");
        assertThat(submit.path("responses")
                        .path("422")
                        .path("content")
                        .path("application/json")
                        .path("schema")
                        .path("$ref")
                        .asText())
                .isEqualTo("#/components/schemas/ApiError");

        JsonNode action =
                paths.path("/api/v1/jobs/{namespace}/{name}/actions/{action}").path("post");
        assertThat(action.path("responses")
                        .path("200")
                        .path("content")
                        .path("application/json")
                        .path("examples")
                        .path("accepted")
                        .path("$ref")
                        .asText())
                .endsWith("/accepted");
        assertThat(examples.path("accepted").path("value").path("kind").asText())
                .isEqualTo("AbortJob");
        JsonNode list = paths.path("/api/v1/jobs").path("get");
        assertThat(list.path("responses")
                        .path("200")
                        .path("content")
                        .path("application/json")
                        .path("examples")
                        .path("jobList")
                        .path("$ref")
                        .asText())
                .endsWith("/jobList");
        assertThat(list.path("parameters").toString()).contains("namespace", "queue", "phase");
        assertThat(api.path("components")
                        .path("securitySchemes")
                        .path("apiToken")
                        .path("scheme")
                        .asText())
                .isEqualTo("bearer");
        assertThat(api.path("security").toString())
                .as("every call needs the token")
                .contains("apiToken");
        assertThat(list.path("responses").has("401")).as("reads too").isTrue();

        assertThat(get("q/swagger-ui/").statusCode())
                .as("Swagger UI is off unless enabled")
                .isEqualTo(404);
    }
}
