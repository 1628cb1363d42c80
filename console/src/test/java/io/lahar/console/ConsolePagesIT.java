package io.lahar.console;

import static io.lahar.console.view.Fixtures.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lahar.console.view.Fixtures;
import io.lahar.schema.Topics;
import io.lahar.testkit.Browser;
import io.lahar.testkit.LaharInfraTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Every page in a real browser (headless Chromium at 1280×800) over records written to the public
 * topics as Lahar's writers write them: the first paint of the jobs page with 10,000 jobs
 * (measured, written to {@code target/screenshots/first-paint.txt}), each page's content and a
 * screenshot of it under {@code target/screenshots/}, and each page changing live, without a
 * reload, when a record arrives. No page makes a request to another origin or throws.
 */
@QuarkusTest
@QuarkusTestResource(LaharInfraTestResource.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConsolePagesIT {

    static final int JOBS = 10_000;
    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final ObjectMapper JSON = new ObjectMapper();

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @ConfigProperty(name = "lahar.schema-registry.url")
    String registryUrl;

    @TestHTTPResource("/")
    URI root;

    private final String run = UUID.randomUUID().toString().substring(0, 6);
    private final String ns = "pages-" + run;
    private final String perf = "perf-" + run;
    private final Path shots = Path.of("target/screenshots").toAbsolutePath();
    private final Map<String, String> measured = new LinkedHashMap<>();
    private final HttpClient http = HttpClient.newHttpClient();
    private Browser browser;
    private TopicWriter writer;

    @BeforeAll
    void start() throws Exception {
        browser = Browser.start(
                Path.of(System.getProperty("lahar.project.root", ".."))
                        .toAbsolutePath()
                        .resolve("target/browser-tools"),
                1280,
                800);
        TopicWriter.createTopics(bootstrap);
        writer = new TopicWriter(bootstrap, registryUrl);
        for (int i = 0; i < JOBS; i++) {
            String phase = switch (i % 5) {
                case 0 -> "Pending";
                case 1, 2 -> "Running";
                case 3 -> "Completed";
                default -> "Failed";
            };
            writer.send(
                    Topics.JOB_STATUS,
                    perf + "/job-" + i,
                    Fixtures.job(perf, "job-" + i, "q" + (i % 4), phase, T0.plusSeconds(i), T0.plusSeconds(i + 60)));
        }
        writer.send(Topics.QUEUES, "root-" + run, Fixtures.queue("root-" + run, null, 1, Map.of()));
        writer.send(
                Topics.QUEUES,
                ns + "-train",
                Fixtures.queue(ns + "-train", "root-" + run, 3, Map.of("cpu", "16", "memory", "64Gi")));
        writer.send(Topics.QUEUES, ns + "-serve", Fixtures.queue(ns + "-serve", "root-" + run, 1, Map.of("cpu", "8")));
        writer.send(
                Topics.QUEUE_STATUS,
                ns + "-train",
                Fixtures.queueStatus(
                        ns + "-train", 1, Map.of("cpu", "3", "memory", "12Gi"), Map.of("cpu", "12", "memory", "48Gi")));
        for (int n = 1; n <= 3; n++) {
            writer.send(Topics.NODES, ns + "-node-" + n, Fixtures.node(ns + "-node-" + n, "8", "32Gi"));
        }
        writer.send(
                Topics.JOB_STATUS,
                ns + "/tf-job",
                Fixtures.job(ns, "tf-job", ns + "-train", "Running", T0, T0.plusSeconds(20)));
        writer.send(
                Topics.JOB_STATUS,
                ns + "/stuck",
                Fixtures.job(ns, "stuck", ns + "-train", "Pending", T0, T0.plusSeconds(2)));
        writer.send(
                Topics.POD_GROUPS,
                ns + "/stuck",
                Fixtures.podGroup(ns, "stuck", ns + "-train", "Pending", "NotEnoughResources"));
        writer.send(Topics.POD_GROUPS, ns + "/tf-job", Fixtures.podGroup(ns, "tf-job", ns + "-train", "Running", null));
        writer.send(
                Topics.JOB_TRANSITIONS,
                ns + "/tf-job",
                Fixtures.transition(ns, "tf-job", null, "Pending", "JobSubmitted", null, null, 10, T0));
        writer.send(
                Topics.JOB_TRANSITIONS,
                ns + "/tf-job",
                Fixtures.transition(
                        ns, "tf-job", "Pending", "Running", "PodRunning", "SyncJob", null, 14, T0.plusSeconds(6)));
        writer.send(
                Topics.POD_EVENTS,
                ns + "/tf-job",
                Fixtures.pod(ns, "tf-job", "ps", 0, "Running", ns + "-node-1", null, T0));
        writer.send(
                Topics.POD_EVENTS,
                ns + "/tf-job",
                Fixtures.pod(ns, "tf-job", "worker", 0, "Running", ns + "-node-1", null, T0));
        writer.send(
                Topics.POD_EVENTS,
                ns + "/tf-job",
                Fixtures.pod(ns, "tf-job", "worker", 1, "Running", ns + "-node-2", null, T0));
        writer.send(Topics.FLOW_STATUS, ns + "/pipeline", Fixtures.flow(ns, "pipeline", "Running"));
        writer.sendRaw(Topics.JOB_STATUS, ns + "/poison", "not avro".getBytes(StandardCharsets.UTF_8));
        writer.send(
                Topics.DEAD_LETTERS,
                ns + "/bad-input",
                Fixtures.deadLetter(
                        "lahar.pod-events",
                        3,
                        1234,
                        ns + "/bad-input",
                        "SerializationException: unknown magic byte 120 (" + ns + ")"));
        writer.flush();
        await().atMost(WAIT)
                .until(() -> api("api/jobs?limit=0&namespace=" + perf)
                                        .path("matched")
                                        .asInt()
                                == JOBS
                        && api("api/jobs/" + ns + "/poison").has("row")
                        && api("api/flows/" + ns + "/pipeline").has("nodes"));
    }

    @AfterAll
    void stop() throws Exception {
        if (writer != null) {
            writer.close();
        }
        if (browser != null) {
            browser.close();
        }
        Files.createDirectories(shots);
        StringBuilder s = new StringBuilder();
        measured.forEach((k, v) -> s.append(k).append(": ").append(v).append('\n'));
        Files.writeString(shots.resolve("first-paint.txt"), s.toString());
        System.out.println("[console pages] " + measured);
    }

    private JsonNode api(String path) throws Exception {
        HttpResponse<String> r =
                http.send(HttpRequest.newBuilder(root.resolve(path)).build(), HttpResponse.BodyHandlers.ofString());
        return r.statusCode() == 200 ? JSON.readTree(r.body()) : JSON.createObjectNode();
    }

    private void page(String hash) {
        browser.go(root + "#" + hash);
    }

    /** The page fits 1280 pixels (no horizontal scrolling) and had no script error or outside request. */
    private void usable(String name) {
        assertThat(browser.eval("document.documentElement.scrollWidth").asInt())
                .as(name + " fits 1280 px")
                .isLessThanOrEqualTo(1280);
        JsonNode problems = browser.problems();
        assertThat(problems.path("errors")).as(name + " script errors").isEmpty();
        assertThat(problems.path("outside"))
                .as(name + " requests to other origins")
                .isEmpty();
        browser.screenshot(shots.resolve(name + ".png"), false);
    }

    @Test
    @Order(1)
    void theJobsPageWithTenThousandJobsPaintsFastAndFilters() throws Exception {
        long[] api = new long[5];
        for (int i = 0; i < api.length; i++) {
            long start = System.nanoTime();
            api("api/jobs?limit=50");
            api[i] = (System.nanoTime() - start) / 1_000_000;
        }
        java.util.Arrays.sort(api);
        measured.put("GET /api/jobs?limit=50 over " + JOBS + "+ jobs, median of 5 (ms)", Long.toString(api[2]));
        // Three fresh loads of the jobs page: the first paint, and the table's first page painted.
        long[] fcp = new long[3];
        long[] rendered = new long[3];
        for (int i = 0; i < 3; i++) {
            browser.go("about:blank");
            page("/jobs");
            JsonNode paint = browser.waitFor("""
                    (() => { const r = performance.getEntriesByName('jobs-rendered')[0];
                             const f = performance.getEntriesByName('first-contentful-paint')[0];
                             return r && f ? {rendered: r.startTime, fcp: f.startTime,
                                 rows: document.querySelectorAll('#jobs tbody tr').length} : null; })()""", WAIT);
            assertThat(paint.path("rows").asInt())
                    .as("one page of rows, not ten thousand")
                    .isEqualTo(50);
            fcp[i] = Math.round(paint.path("fcp").asDouble());
            rendered[i] = Math.round(paint.path("rendered").asDouble());
        }
        measured.put("first contentful paint, 3 loads (ms)", java.util.Arrays.toString(fcp));
        measured.put("jobs table rendered, 3 loads (ms)", java.util.Arrays.toString(rendered));
        java.util.Arrays.sort(rendered);
        // A regression guard far above the aim (under a second), so a busy machine does not fail it.
        assertThat(rendered[1]).isLessThan(5000);
        assertThat(browser.eval("document.getElementById('job-count').textContent")
                        .asText())
                .matches("\\d+ of \\d+ jobs");
        usable("jobs-10000");

        browser.select("select[name=namespace]", perf);
        browser.waitFor("document.getElementById('job-count').textContent.startsWith('" + JOBS + " of')", WAIT);
        browser.select("select[name=phase]", "Failed");
        browser.waitFor("document.getElementById('job-count').textContent.startsWith('" + JOBS / 5 + " of')", WAIT);
        browser.fill("input[name=q]", "job-999");
        browser.waitFor("document.querySelectorAll('#jobs tbody tr[data-phase=Failed]').length === 3", WAIT);
        assertThat(browser.eval(
                                "[...document.querySelectorAll('#jobs tbody tr')].map(r => r.dataset.key).sort().join()")
                        .asText())
                .isEqualTo(perf + "/job-999," + perf + "/job-9994," + perf + "/job-9999");
    }

    @Test
    @Order(2)
    void aJobsRowChangesPhaseLiveAndItsPageShowsTheTimelineGrowing() throws Exception {
        page("/jobs?namespace=" + ns);
        browser.waitFor("document.querySelector('#jobs tr[data-key=\"" + ns + "/tf-job\"][data-phase=Running]')", WAIT);
        assertThat(browser.eval("document.querySelector('#jobs tr[data-key=\"" + ns + "/poison\"]').textContent")
                        .asText())
                .contains("Undecodable");
        browser.eval("window.notReloaded = true");
        writer.send(
                Topics.JOB_STATUS,
                ns + "/tf-job",
                Fixtures.job(ns, "tf-job", ns + "-train", "Completed", T0, T0.plusSeconds(90)));
        writer.flush();
        browser.waitFor(
                "document.querySelector('#jobs tr[data-key=\"" + ns + "/tf-job\"][data-phase=Completed]')", WAIT);
        assertThat(browser.eval("window.notReloaded === true").asBoolean())
                .as("changed live, not reloaded")
                .isTrue();
        usable("jobs");

        page("/jobs/" + ns + "/tf-job");
        browser.waitFor("document.querySelectorAll('#timeline li').length === 2", WAIT);
        assertThat(browser.eval("document.getElementById('pods').textContent").asText())
                .contains(ns + "-node-1", "tf-job-worker-1");
        assertThat(browser.eval("document.getElementById('timeline').textContent")
                        .asText())
                .contains("PodRunning", "SyncJob", "lahar.pod-events/2@14");
        assertThat(browser.eval("document.getElementById('action-status').textContent")
                        .asText())
                .contains("Read-only");
        browser.eval("window.notReloaded = true");
        writer.send(
                Topics.JOB_TRANSITIONS,
                ns + "/tf-job",
                Fixtures.transition(
                        ns,
                        "tf-job",
                        "Running",
                        "Completed",
                        "TaskCompleted",
                        "CompleteJob",
                        "spec.policies[0]",
                        21,
                        T0.plusSeconds(90)));
        writer.flush();
        browser.waitFor("document.querySelectorAll('#timeline li').length === 3", WAIT);
        assertThat(browser.eval("document.querySelector('#timeline li').textContent")
                        .asText())
                .as("newest first")
                .contains("TaskCompleted", "spec.policies[0]");
        assertThat(browser.eval("window.notReloaded === true").asBoolean()).isTrue();
        usable("job");

        // The newest transition's own record ("written at"), decoded through the registry.
        browser.click("#timeline li:first-child div.why a:last-of-type");
        browser.waitFor("document.getElementById('record-value')", WAIT);
        assertThat(browser.eval("document.getElementById('record-value').textContent")
                        .asText())
                .contains("TaskCompleted");
        usable("record");
    }

    @Test
    @Order(3)
    void aQueueBarMovesLive() throws Exception {
        page("/queues");
        String bar = "document.querySelector('[data-queue=\"" + ns + "-train\"] [data-resource=cpu] .bar')";
        browser.waitFor(bar + " && " + bar + ".dataset.allocated === '3'", WAIT);
        String width = browser.eval(bar + ".querySelector('.fill').style.width").asText();
        assertThat(browser.eval("document.querySelector('[data-queue=\"" + ns + "-train\"]').textContent")
                        .asText())
                .contains("weight 3", "NotEnoughResources 1", "deserved 12", "capability 16");
        assertThat(browser.eval("!!document.querySelector('[data-queue=\"" + ns
                                + "-serve\"]').closest('ul.tree').closest('li')")
                        .asBoolean())
                .as("a child of its parent in the tree")
                .isTrue();
        writer.send(
                Topics.QUEUE_STATUS,
                ns + "-train",
                Fixtures.queueStatus(
                        ns + "-train",
                        3,
                        Map.of("cpu", "14", "memory", "40Gi"),
                        Map.of("cpu", "12", "memory", "48Gi")));
        writer.flush();
        browser.waitFor(bar + ".dataset.allocated === '14'", WAIT);
        assertThat(browser.eval(bar + ".querySelector('.fill').style.width").asText())
                .isNotEqualTo(width);
        assertThat(browser.eval("document.querySelector('[data-queue=\"" + ns + "-train\"]').textContent")
                        .asText())
                .as("over its deserved share, in words")
                .contains("over deserved");
        browser.eval("document.querySelector('[data-queue=\"" + ns + "-train\"]').scrollIntoView({block: 'center'})");
        usable("queues");
    }

    @Test
    @Order(4)
    void theFlowsDagChangesColourLive() throws Exception {
        page("/flows");
        browser.waitFor(
                "document.getElementById('flows-table') && document.getElementById('flows-table').textContent.includes('"
                        + ns + "/pipeline')",
                WAIT);
        usable("flows");
        page("/flows/" + ns + "/pipeline");
        String b = "document.querySelector('#dag g[data-node=b]')";
        browser.waitFor(b + " && " + b + ".dataset.phase === 'Running'", WAIT);
        String colour = browser.eval("getComputedStyle(" + b + ".querySelector('rect')).fill")
                .asText();
        assertThat(browser.eval("document.querySelectorAll('#dag path.edge').length")
                        .asInt())
                .isEqualTo(5);
        assertThat(browser.eval(b + ".textContent").asText())
                .as("the phase in words")
                .contains("Running");
        writer.send(Topics.FLOW_STATUS, ns + "/pipeline", Fixtures.flow(ns, "pipeline", "Failed"));
        writer.flush();
        browser.waitFor(b + ".dataset.phase === 'Failed'", WAIT);
        assertThat(browser.eval("getComputedStyle(" + b + ".querySelector('rect')).fill")
                        .asText())
                .isNotEqualTo(colour);
        assertThat(browser.eval(b + ".textContent").asText()).contains("Failed");
        usable("flow");
    }

    @Test
    @Order(5)
    void nodesShowWhatTheirPodsHold() throws Exception {
        page("/nodes");
        browser.waitFor(
                "document.getElementById('nodes-table') && document.getElementById('nodes-table').textContent.includes('"
                        + ns + "-node-1')",
                WAIT);
        String row = "[...document.querySelectorAll('#nodes-table tbody tr')].find(r => r.textContent.includes('" + ns
                + "-node-1'))";
        assertThat(browser.eval(row + ".textContent").asText())
                .contains("1.5 of 8", "3 GiB of 32 GiB", "2 of 110", "gpu=true:NoSchedule", "Ready");
        usable("nodes");
    }

    @Test
    @Order(6)
    void aPoisonRecordAppearsAmongTheDeadLettersLive() throws Exception {
        page("/deadletters");
        browser.waitFor(
                "document.getElementById('letters') && document.getElementById('letters').textContent.includes('unknown magic byte 120 ("
                        + ns + ")')",
                WAIT);
        assertThat(browser.eval("document.getElementById('undecodable').textContent")
                        .asText())
                .contains(ns + "/poison");
        browser.eval("window.notReloaded = true");
        writer.send(
                Topics.DEAD_LETTERS,
                ns + "/later",
                Fixtures.deadLetter("lahar.job-commands", 0, 99, ns + "/later", "invalid command (" + ns + ")"));
        writer.flush();
        browser.waitFor(
                "document.getElementById('letters').textContent.includes('invalid command (" + ns + ")')", WAIT);
        assertThat(browser.eval("window.notReloaded === true").asBoolean()).isTrue();
        usable("deadletters");
    }
}
