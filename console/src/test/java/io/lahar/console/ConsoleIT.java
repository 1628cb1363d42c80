package io.lahar.console;

import static io.lahar.console.view.Fixtures.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lahar.console.view.Fixtures;
import io.lahar.schema.Topics;
import io.lahar.testkit.LaharInfraTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.stream.Stream;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The console on the real broker and registry: records written to the public topics as Lahar's
 * writers write them come out of its API; undecodable records are shown, not fatal; the change
 * stream tells browsers; a browser that does not read is dropped without holding anything back.
 * The broker is shared with other tests: everything here lives in a namespace of its own.
 */
@QuarkusTest
@QuarkusTestResource(LaharInfraTestResource.class)
class ConsoleIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration WAIT = Duration.ofSeconds(60);

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @ConfigProperty(name = "lahar.schema-registry.url")
    String registryUrl;

    @TestHTTPResource("/")
    URI root;

    private final HttpClient http = HttpClient.newHttpClient();
    private final String ns = "console-" + UUID.randomUUID().toString().substring(0, 8);

    @BeforeEach
    void topics() throws Exception {
        TopicWriter.createTopics(bootstrap);
    }

    private JsonNode get(String path) throws Exception {
        HttpResponse<String> r =
                http.send(HttpRequest.newBuilder(root.resolve(path)).build(), HttpResponse.BodyHandlers.ofString());
        return r.statusCode() == 200
                ? JSON.readTree(r.body())
                : JSON.createObjectNode().put("status", r.statusCode());
    }

    private int status(String method, String path, String... headers) throws Exception {
        HttpRequest.Builder b =
                HttpRequest.newBuilder(root.resolve(path)).method(method, HttpRequest.BodyPublishers.noBody());
        if (headers.length > 0) {
            b.headers(headers);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    @Test
    void everyPageReadsWhatTheTopicsSay() throws Exception {
        String flowName = "f";
        try (TopicWriter w = new TopicWriter(bootstrap, registryUrl)) {
            w.send(Topics.QUEUES, ns + "-q", Fixtures.queue(ns + "-q", null, 2, Map.of("cpu", "16")));
            w.send(
                    Topics.QUEUE_STATUS,
                    ns + "-q",
                    Fixtures.queueStatus(ns + "-q", 1, Map.of("cpu", "1500m"), Map.of("cpu", "8")));
            w.send(Topics.NODES, ns + "-n1", Fixtures.node(ns + "-n1", "8", "32Gi"));
            w.send(Topics.JOB_STATUS, ns + "/tf", Fixtures.job(ns, "tf", ns + "-q", "Running", T0, T0.plusSeconds(5)));
            w.send(
                    Topics.JOB_STATUS,
                    ns + "/wait",
                    Fixtures.job(ns, "wait", ns + "-q", "Pending", T0, T0.plusSeconds(1)));
            w.send(
                    Topics.POD_GROUPS,
                    ns + "/wait",
                    Fixtures.podGroup(ns, "wait", ns + "-q", "Pending", "NotEnoughResources"));
            w.send(
                    Topics.JOB_TRANSITIONS,
                    ns + "/tf",
                    Fixtures.transition(ns, "tf", null, "Pending", "JobSubmitted", null, null, 3, T0));
            w.send(
                    Topics.JOB_TRANSITIONS,
                    ns + "/tf",
                    Fixtures.transition(ns, "tf", "Pending", "Running", "PodRunning", null, null, 4, T0));
            w.send(Topics.POD_EVENTS, ns + "/tf", Fixtures.pod(ns, "tf", "ps", 0, "Running", ns + "-n1", null, T0));
            w.send(Topics.POD_EVENTS, ns + "/tf", Fixtures.pod(ns, "tf", "worker", 0, "Running", ns + "-n1", null, T0));
            w.send(Topics.FLOW_STATUS, ns + "/" + flowName, Fixtures.flow(ns, flowName, "Running"));
            w.flush();
        }

        await().atMost(WAIT).untilAsserted(() -> {
            JsonNode page = get("api/jobs?namespace=" + ns);
            assertThat(page.path("matched").asInt()).isEqualTo(2);
        });
        JsonNode pending =
                get("api/jobs?namespace=" + ns + "&phase=Pending").path("items").get(0);
        assertThat(pending.path("name").asText()).isEqualTo("wait");
        assertThat(pending.path("message").asText()).contains("Insufficient cpu");

        JsonNode tf = get("api/jobs/" + ns + "/tf");
        assertThat(tf.path("row").path("phase").asText()).isEqualTo("Running");
        await().atMost(WAIT).untilAsserted(() -> {
            JsonNode d = get("api/jobs/" + ns + "/tf");
            assertThat(d.path("transitions")).hasSize(2);
            assertThat(d.path("pods")).hasSize(2);
        });
        JsonNode detail = get("api/jobs/" + ns + "/tf");
        assertThat(detail.path("transitions").get(1).path("source").asText()).isEqualTo("lahar.pod-events/2@4");
        assertThat(detail.path("pods").get(0).path("node").asText()).isEqualTo(ns + "-n1");
        assertThat(get("api/jobs/" + ns + "/nope").path("status").asInt()).isEqualTo(404);

        JsonNode node = find(get("api/nodes"), "name", ns + "-n1");
        assertThat(node.path("allocated").path("cpu").path("value").asDouble()).isEqualTo(1.5);
        assertThat(node.path("pods")).hasSize(2);

        await().atMost(WAIT).untilAsserted(() -> {
            JsonNode q = find(get("api/queues"), "name", ns + "-q");
            assertThat(q.path("weight").asInt()).isEqualTo(2);
            assertThat(q.path("allocated").path("cpu").path("text").asText()).isEqualTo("1.5");
            assertThat(q.path("unschedulable").path("NotEnoughResources").asInt())
                    .isEqualTo(1);
            assertThat(q.path("jobs").path("Running").asInt()).isEqualTo(1);
        });

        JsonNode flow = await().atMost(WAIT).until(() -> get("api/flows/" + ns + "/" + flowName), f -> f.has("nodes"));
        assertThat(flow.path("nodes").get(1).path("phase").asText()).isEqualTo("Running");
        assertThat(flow.path("nodes").get(4).path("targets").toString()).isEqualTo("[\"c\",\"d\"]");

        // The timeline's links: the input record, decoded through the registry.
        String position = detail.path("transitions").get(1).path("position").asText();
        String[] at = position.split("[/@]");
        JsonNode record = get("api/records/" + at[0] + "/" + at[1] + "/" + at[2]);
        assertThat(record.path("schema").asText()).isEqualTo("io.lahar.schema.JobTransition");
        assertThat(record.path("value").path("event").asText()).isEqualTo("PodRunning");
        assertThat(get("api/records/not-a-lahar-topic/0/0").path("status").asInt())
                .isEqualTo(404);
    }

    @Test
    void anUndecodableRecordIsShownWithItsDeadLetterAndTheConsoleGoesOn() throws Exception {
        try (TopicWriter w = new TopicWriter(bootstrap, registryUrl)) {
            w.sendRaw(Topics.JOB_STATUS, ns + "/poison", "not avro at all".getBytes(StandardCharsets.UTF_8));
            // Magic byte 0 and a schema id the registry never gave.
            w.sendRaw(Topics.FLOW_STATUS, ns + "/poison-flow", new byte[] {0, 0x7f, 0, 0, 1, 2, 3});
            w.flush();
        }
        JsonNode row = await().atMost(WAIT)
                .until(() -> get("api/jobs/" + ns + "/poison").path("row"), r -> !r.isMissingNode());
        assertThat(row.path("phase").asText()).isEqualTo("Undecodable");
        assertThat(row.path("error").asText()).isNotBlank();
        JsonNode undecodable = await().atMost(WAIT)
                .until(() -> find(get("api/deadletters").path("undecodable"), "key", ns + "/poison"), u -> u != null);
        // The streams-app's answer to such a record is a dead letter naming it: the console joins the two.
        try (TopicWriter w = new TopicWriter(bootstrap, registryUrl)) {
            w.send(
                    Topics.DEAD_LETTERS,
                    ns + "/poison",
                    Fixtures.deadLetter(
                            undecodable.path("topic").asText(),
                            undecodable.path("partition").asInt(),
                            undecodable.path("offset").asLong(),
                            ns + "/poison",
                            "not Avro for " + ns));
            w.send(Topics.JOB_STATUS, ns + "/after", Fixtures.job(ns, "after", "q", "Running", T0, T0));
            w.flush();
        }
        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(get("api/jobs/" + ns + "/poison")
                            .path("row")
                            .path("error")
                            .asText())
                    .contains("dead letter: not Avro for " + ns);
            assertThat(find(get("api/deadletters").path("letters"), "key", ns + "/poison")
                            .path("processor")
                            .asText())
                    .isEqualTo("streams-app");
            assertThat(get("api/jobs/" + ns + "/after")
                            .path("row")
                            .path("phase")
                            .asText())
                    .isEqualTo("Running");
        });
        assertThat(find(get("api/flows"), "key", ns + "/poison-flow")
                        .path("phase")
                        .asText())
                .isEqualTo("Undecodable");
    }

    @Test
    void theChangeStreamNamesWhatChangedAndASlowBrowserIsDroppedWithoutHoldingTheOthers() throws Exception {
        LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();
        HttpRequest events = HttpRequest.newBuilder(root.resolve("api/events")).build();
        var stream = http.sendAsync(events, HttpResponse.BodyHandlers.ofLines())
                .thenAccept(r -> r.body().forEach(lines::add));
        // A browser that never reads: a socket with a tiny receive window.
        try (Socket slow = new Socket()) {
            slow.setReceiveBufferSize(1024);
            slow.connect(new java.net.InetSocketAddress(root.getHost(), root.getPort()));
            slow.getOutputStream()
                    .write(("GET /api/events HTTP/1.1\r\nHost: x\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            await().atMost(WAIT).until(() -> lines.stream().anyMatch(l -> l.startsWith("event: hello")));

            double droppedBefore = metric("lahar_console_sse_dropped_total");
            String longName = "x".repeat(200);
            try (TopicWriter w = new TopicWriter(bootstrap, registryUrl)) {
                // Enough changes, with keys long enough, that the slow browser's queue fills: each
                // round fewer keys than an event names one by one (over that it says "*").
                for (int round = 0;
                        round < 400 && metric("lahar_console_sse_dropped_total") <= droppedBefore;
                        round++) {
                    for (int i = 0; i < 150; i++) {
                        w.send(
                                Topics.JOB_TRANSITIONS,
                                ns + "/" + longName + round + "-" + i,
                                Fixtures.transition(ns, "j", null, "Pending", "JobSubmitted", null, null, i, T0));
                    }
                    w.flush();
                    Thread.sleep(50);
                }
                w.send(Topics.JOB_STATUS, ns + "/live", Fixtures.job(ns, "live", "q", "Running", T0, T0));
                w.flush();
            }
            await().atMost(WAIT)
                    .untilAsserted(() -> assertThat(metric("lahar_console_sse_dropped_total"))
                            .isGreaterThan(droppedBefore));
            await().atMost(WAIT)
                    .until(() -> lines.stream().anyMatch(l -> l.startsWith("data:") && l.contains(ns + "/live")));
            assertThat(get("api/jobs/" + ns + "/live").path("row").path("phase").asText())
                    .isEqualTo("Running");
            InputStream in = slow.getInputStream();
            slow.setSoTimeout(10_000);
            // Dropped: the server closed the connection, so reading what it had sent ends.
            byte[] buffer = new byte[65536];
            long read = 0;
            for (int n; (n = in.read(buffer)) >= 0; ) {
                read += n;
            }
            assertThat(read).isPositive();
        } finally {
            stream.cancel(true);
        }
    }

    @Test
    void withoutATokenTheConsoleIsReadOnly() throws Exception {
        assertThat(get("api/summary").path("readOnly").asBoolean()).isTrue();
        assertThat(status("POST", "api/jobs/" + ns + "/x/actions/AbortJob", "X-Lahar-Console", "1"))
                .isEqualTo(403);
        assertThat(status("DELETE", "api/jobs/" + ns + "/x", "X-Lahar-Console", "1"))
                .isEqualTo(403);
        assertThat(status("POST", "api/jobs/" + ns + "/x/actions/Explode", "X-Lahar-Console", "1"))
                .isEqualTo(422);
    }

    @Test
    void theConsoleIsReadyOnceCaughtUpAndServesItsPages() throws Exception {
        await().atMost(WAIT)
                .until(() -> http.send(
                                        HttpRequest.newBuilder(root.resolve("q/health/ready"))
                                                .build(),
                                        HttpResponse.BodyHandlers.discarding())
                                .statusCode()
                        == 200);
        HttpResponse<String> index =
                http.send(HttpRequest.newBuilder(root).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(index.body()).contains("console.js").doesNotContain("http://", "https://");
        for (String file : new String[] {"console.js", "console.css"}) {
            HttpResponse<String> r =
                    http.send(HttpRequest.newBuilder(root.resolve(file)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(200);
            // Nothing fetched from elsewhere: the only absolute URL is SVG's namespace name.
            assertThat(r.body().lines().filter(l -> l.contains("://")))
                    .allSatisfy(l -> assertThat(l).contains("http://www.w3.org/2000/svg"));
        }
    }

    private double metric(String name) throws Exception {
        String text = http.send(
                        HttpRequest.newBuilder(root.resolve("q/metrics")).build(), HttpResponse.BodyHandlers.ofString())
                .body();
        return text.lines()
                .filter(l -> l.startsWith(name + " ") || l.startsWith(name + "{"))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
                .sum();
    }

    private static JsonNode find(JsonNode array, String field, String value) {
        for (JsonNode n : array) {
            if (value.equals(n.path(field).asText())) {
                return n;
            }
        }
        return null;
    }

    static Stream<String> keys(JsonNode page) {
        return java.util.stream.StreamSupport.stream(page.path("items").spliterator(), false)
                .map(n -> n.path("key").asText());
    }
}
