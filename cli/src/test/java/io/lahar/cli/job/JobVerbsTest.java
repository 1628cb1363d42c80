package io.lahar.cli.job;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.lahar.cli.Lahar;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The verbs against a stand-in API server: what they ask, what they print, how they fail. */
class JobVerbsTest {

    /** What the stand-in server saw: method, path with query, Authorization, body. */
    record Seen(String method, String uri, String authorization, String requestId, String body) {}

    private HttpServer server;
    private final List<Seen> seen = new CopyOnWriteArrayList<>();
    private volatile int status = 200;
    private volatile String reply = "{}";
    /** Answers by request path, where one verb asks more than one thing. */
    private final java.util.Map<String, String> replies = new java.util.concurrent.ConcurrentHashMap<>();

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @BeforeEach
    void start() throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            seen.add(new Seen(
                    exchange.getRequestMethod(),
                    exchange.getRequestURI().toString(),
                    exchange.getRequestHeaders().getFirst("Authorization"),
                    exchange.getRequestHeaders().getFirst("X-Lahar-Request-Id"),
                    new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8)));
            String path = exchange.getRequestURI().getPath();
            byte[] body = replies.getOrDefault(path, reply).getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private int lahar(String... args) {
        String[] all = new String[args.length + 2];
        System.arraycopy(args, 0, all, 0, args.length);
        all[args.length] = "--server";
        all[args.length + 1] = "http://127.0.0.1:" + server.getAddress().getPort();
        return Lahar.run(all, new PrintWriter(out), new PrintWriter(err));
    }

    @Test
    void runPostsTheManifestWithTheTokenAndNamesTheJob(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("job.yaml");
        Files.writeString(file, "apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata:\n  name: j\n");
        status = 201;
        reply = "{\"metadata\":{\"name\":\"j\",\"namespace\":\"default\"},\"spec\":{\"queue\":\"default\"}}";

        assertThat(lahar("job", "run", "-f", file.toString(), "--token", "s3cret"))
                .isZero();

        assertThat(seen).singleElement().satisfies(s -> {
            assertThat(s.method()).isEqualTo("POST");
            assertThat(s.uri()).isEqualTo("/api/v1/jobs");
            assertThat(s.authorization()).isEqualTo("Bearer s3cret");
            assertThat(s.body()).contains("name: j");
            assertThat(s.requestId()).hasSize(36);
        });
        assertThat(out.toString()).isEqualTo("Created Job: default/j\n");
    }

    @Test
    void aRejectedRunPrintsEveryReasonAndExitsOne(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("job.json");
        Files.writeString(file, "{}");
        status = 422;
        reply = """
                {"error":"SubmitJob rejected","violations":[{"path":"spec.minAvailable","message":"exceeds 3"},
                 {"path":"spec.tasks[1].name","message":"duplicate worker"}]}""";

        assertThat(lahar("job", "run", "-f", file.toString())).isEqualTo(Lahar.EXIT_REJECTED);

        assertThat(err.toString())
                .contains("SubmitJob rejected (HTTP 422)")
                .contains("error: spec.minAvailable: exceeds 3")
                .contains("error: spec.tasks[1].name: duplicate worker");
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void listAsksWithTheFiltersAndPrintsTheTable() {
        reply =
                "[{\"namespace\":\"ml\",\"name\":\"j\",\"phase\":\"Running\",\"replicas\":2,\"minAvailable\":2,\"running\":2}]";

        assertThat(lahar("job", "list", "-n", "ml", "--queue", "q a")).isZero();
        assertThat(seen.get(0).uri()).isEqualTo("/api/v1/jobs?namespace=ml&queue=q%20a");
        assertThat(out.toString()).startsWith("Name").contains("Running");

        assertThat(lahar("job", "list", "--all-namespaces", "-o", "json")).isZero();
        assertThat(seen.get(1).uri()).isEqualTo("/api/v1/jobs");
        assertThat(out.toString()).contains("\"name\" : \"j\"");
    }

    @Test
    void suspendResumeAndDeleteSendTheirCommands() {
        assertThat(lahar("job", "suspend", "j", "-n", "ml", "-m", "for maintenance"))
                .isZero();
        assertThat(lahar("job", "resume", "j")).isZero();
        assertThat(lahar("job", "delete", "j")).isZero();

        assertThat(seen)
                .extracting(s -> s.method() + " " + s.uri())
                .containsExactly(
                        "POST /api/v1/jobs/ml/j/actions/AbortJob?message=for%20maintenance",
                        "POST /api/v1/jobs/default/j/actions/ResumeJob", "DELETE /api/v1/jobs/default/j");
        assertThat(out.toString()).contains("Suspended Job: ml/j", "Resumed Job: default/j", "Deleted Job: default/j");
        assertThat(seen).extracting(Seen::requestId).doesNotContainNull().doesNotHaveDuplicates();
    }

    @Test
    void viewPrintsYamlOnRequestAndNotFoundExitsOne() {
        reply = "{\"metadata\":{\"name\":\"j\"},\"spec\":{\"queue\":\"default\"}}";
        assertThat(lahar("job", "view", "j", "-o", "yaml")).isZero();
        assertThat(out.toString()).contains("name: j").contains("queue: default");

        status = 404;
        reply = "{\"error\":\"job default/k not found\"}";
        assertThat(lahar("job", "view", "k")).isEqualTo(Lahar.EXIT_REJECTED);
        assertThat(err.toString()).contains("job default/k not found");
    }

    @Test
    void viewDescribesTheTasksWithTheirPodCountsThePodsAndEndsWithTheLatestTransitions() {
        reply = """
                {"metadata":{"name":"j","namespace":"default"},
                 "spec":{"queue":"default","tasks":[{"name":"ps","replicas":1},{"name":"worker","replicas":2,"minAvailable":1}]},
                 "status":{"state":{"phase":"Pending","reason":"PodsNotCreated","message":"waiting for the gang"},
                           "taskStatusCount":{"worker":{"phase":{"Running":1,"Pending":1}}}}}""";
        replies.put("/api/v1/jobs/default/j/pods", """
                [{"name":"j-ps-0","task":"ps","index":0,"version":1,"phase":"Failed","node":"node-2","restarts":3,"exitCode":137,"terminating":false},
                 {"name":"j-worker-0","task":"worker","index":0,"version":1,"phase":"Pending","node":null,"restarts":0,"exitCode":null,"terminating":false}]""");
        replies.put("/api/v1/jobs/default/j/transitions", """
                [{"from":null,"to":"Pending","reason":"Created","message":"job created","time":"2026-12-04T10:00:00Z"}]""");

        assertThat(lahar("job", "view", "j")).isZero();

        String text = out.toString();
        assertThat(text).contains("Reason:").contains("PodsNotCreated").contains("waiting for the gang");
        assertThat(text.lines()
                        .filter(l -> l.startsWith("worker"))
                        .findFirst()
                        .orElseThrow()
                        .split("\\s+"))
                .containsExactly("worker", "2", "1", "1", "1", "0", "0", "0");
        assertThat(text).contains("Pods (2):");
        assertThat(text.lines()
                        .filter(l -> l.startsWith("j-ps-0"))
                        .findFirst()
                        .orElseThrow()
                        .split("\\s+"))
                .as("pod, task, phase, node, restarts, exit code, version")
                .containsExactly("j-ps-0", "ps[0]", "Failed", "node-2", "3", "137", "1");
        assertThat(text.lines()
                        .filter(l -> l.startsWith("j-worker-0"))
                        .findFirst()
                        .orElseThrow()
                        .split("\\s+"))
                .containsExactly("j-worker-0", "worker[0]", "Pending", "<none>", "0", "1");
        assertThat(text.indexOf("Pods (2):")).isLessThan(text.indexOf("Transitions (newest last):"));
        assertThat(text).contains("Transitions (newest last):");
        assertThat(text.lines()
                        .filter(l -> l.startsWith("2026-12-04T10:00:00Z"))
                        .findFirst()
                        .orElseThrow())
                .contains("(new)")
                .contains("Pending")
                .contains("Created")
                .contains("job created");
        assertThat(seen)
                .extracting(Seen::uri)
                .containsExactly(
                        "/api/v1/jobs/default/j",
                        "/api/v1/jobs/default/j/pods",
                        "/api/v1/jobs/default/j/transitions?limit=10");
    }

    @Test
    void anUnreachableServerExitsThree() {
        int port = server.getAddress().getPort();
        server.stop(0);
        int code = Lahar.run(
                new String[] {"job", "list", "--server", "http://127.0.0.1:" + port},
                new PrintWriter(out),
                new PrintWriter(err));
        assertThat(code).isEqualTo(Output.EXIT_UNAVAILABLE);
        assertThat(err.toString()).contains("cannot reach the Lahar API");
    }
}
