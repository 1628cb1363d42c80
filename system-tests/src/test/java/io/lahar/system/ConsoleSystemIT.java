package io.lahar.system;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.lahar.schema.Topics;
import io.lahar.testkit.Browser;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The console in a real browser (headless Chromium, 1280×800) on the running system: jobs and a
 * JobFlow submitted while the pages are open change them live, without a reload — a job's row goes
 * through its phases, its timeline grows, the flow's DAG changes colour, a queue's bar moves, a
 * poison record appears among the dead letters, and Abort on a job's page aborts it. Screenshots
 * of every page go to {@code target/screenshots/}.
 */
@ExtendWith(LaharSystemExtension.class)
class ConsoleSystemIT {

    private static final Duration WAIT = Duration.ofSeconds(120);

    @Test
    void everyPageFollowsTheSystemLive(LaharSystem system) throws Exception {
        Path root = ProjectRoot.DIR;
        Path shots = Path.of("target/screenshots").toAbsolutePath();
        String console = system.console().uri("/").toString();
        String ns = system.namespace;
        try (Browser browser = Browser.start(root.resolve("target/browser-tools"), 1280, 800)) {
            // Jobs: the row of a job submitted now goes Pending → Running → Completed, live.
            browser.go(console + "#/jobs?namespace=" + ns);
            browser.waitFor("document.getElementById('job-count')", WAIT);
            browser.eval("""
                    (() => { window.notReloaded = true; window.seen = [];
                      setInterval(() => { const r = document.querySelector('#jobs tr[data-key="%s/live-job"]');
                        if (r && window.seen[window.seen.length - 1] !== r.dataset.phase) window.seen.push(r.dataset.phase); }, 50);
                      return true; })()""".formatted(ns));
            // Its pods run long enough that a loaded machine still draws the Running row (the
            // console shows the latest phase; a short run may go Pending to Completed between draws).
            // A name of its own: JobsOnSimulatedNodesIT's tf-job, in the same namespace when it ran
            // first, would be a row that is Completed already.
            system.submit(job("live-job", system.schedulerName, "15s"));
            browser.waitFor("window.seen.includes('Completed')", WAIT);
            assertThat(browser.eval("window.seen").toString())
                    .as("the row's phases as they were shown")
                    .contains("Running", "Completed");
            assertThat(browser.eval("window.notReloaded === true").asBoolean()).isTrue();
            shot(browser, shots, "jobs");

            // The job's page: pods on their nodes, and a timeline that grows while it is open.
            system.submit(job("slow-job", system.schedulerName, "8s"));
            awaitStatus(system, "slow-job");
            awaitConsole(system, "/api/jobs/" + ns + "/slow-job");
            browser.go(console + "#/jobs/" + ns + "/slow-job");
            browser.waitFor("document.querySelectorAll('#timeline li').length >= 1", WAIT);
            int before = browser.eval("document.querySelectorAll('#timeline li').length")
                    .asInt();
            browser.waitFor("document.querySelector('#timeline li[data-to=Completed]')", WAIT);
            assertThat(browser.eval("document.querySelectorAll('#timeline li').length")
                            .asInt())
                    .isGreaterThan(before);
            assertThat(browser.eval("document.getElementById('pods').textContent")
                            .asText())
                    .contains(system.pool);
            assertThat(browser.eval("document.getElementById('timeline').textContent")
                            .asText())
                    .contains("lahar.");
            shot(browser, shots, "job");

            // Queues: the default queue's cpu bar moves while a job holds cpu.
            browser.go(console + "#/queues");
            browser.waitFor("document.querySelector('[data-queue=default]')", WAIT);
            browser.eval("""
                    (() => { window.allocated = new Set();
                      setInterval(() => { const b = document.querySelector('[data-queue=default] [data-resource=cpu] .bar');
                        window.allocated.add(b ? b.dataset.allocated : 'none'); }, 50);
                      return true; })()""");
            system.submit(job("queue-job", system.schedulerName, "6s"));
            browser.waitFor("window.allocated.size >= 2", WAIT);
            shot(browser, shots, "queues");

            // Flows: the seed's flow; its DAG's first node changes colour as its job runs and completes.
            Path templates = system.dir.resolve("console-templates.yaml");
            Path flow = system.dir.resolve("console-flow.yaml");
            Files.writeString(templates, FlowSystemIT.templates(system, "3s"));
            var yaml = new com.fasterxml.jackson.databind.ObjectMapper(
                    new com.fasterxml.jackson.dataformat.yaml.YAMLFactory());
            var manifest = (com.fasterxml.jackson.databind.node.ObjectNode) yaml.readTree(FlowSystemIT.flow());
            ((com.fasterxml.jackson.databind.node.ObjectNode) manifest.path("metadata")).put("name", "console-flow");
            Files.writeString(flow, yaml.writeValueAsString(manifest));
            assertThat(system.lahar("jobtemplate", "create", "-f", templates.toString(), "-n", ns)
                            .exit())
                    .isZero();
            assertThat(system.lahar("flow", "create", "-f", flow.toString(), "-n", ns)
                            .exit())
                    .isZero();
            // The page is opened once the console knows the flow: before, its first fetch is a 404,
            // which the browser reports as a console error.
            awaitConsole(system, "/api/flows/" + ns + "/console-flow");
            browser.go(console + "#/flows/" + ns + "/console-flow");
            String a = "document.querySelector('#dag g[data-node=a]')";
            browser.waitFor(a, WAIT);
            browser.eval("""
                    (() => { window.fills = new Set();
                      setInterval(() => { const g = document.querySelector('#dag g[data-node=a]');
                        if (g) window.fills.add(g.dataset.phase + ' ' + getComputedStyle(g.querySelector('rect')).fill); }, 50);
                      return true; })()""");
            browser.waitFor(a + ".dataset.phase === 'Completed'", WAIT);
            browser.waitFor(
                    "document.querySelector('#dag g[data-node=b]') && ['Running', 'Completed'].includes(document.querySelector('#dag g[data-node=b]').dataset.phase)",
                    WAIT);
            JsonNode fills = browser.eval("[...window.fills]");
            assertThat(fills.toString()).as("node a's phase and fill over time").contains("Completed");
            assertThat(browser.eval("new Set([...window.fills].map(f => f.split(' ').slice(1).join(' '))).size")
                            .asInt())
                    .as("node a changed colour")
                    .isGreaterThanOrEqualTo(2);
            shot(browser, shots, "flow");
            // Finished before the other tests use the same templates (an unfinished flow holds them).
            browser.waitFor("document.querySelector('#flow .actions .phase').dataset.phase === 'Succeed'", WAIT);
            browser.go(console + "#/flows");
            browser.waitFor("document.getElementById('flows-table')", WAIT);
            shot(browser, shots, "flows");

            // Nodes: this run's simulated nodes with their allocatable.
            browser.go(console + "#/nodes");
            browser.waitFor(
                    "document.getElementById('nodes-table') && document.getElementById('nodes-table').textContent.includes('"
                            + system.pool + "')",
                    WAIT);
            shot(browser, shots, "nodes");

            // Dead letters: a poison record on lahar.job-commands appears, dead-lettered by the streams-app.
            browser.go(console + "#/deadletters");
            browser.waitFor("document.getElementById('letters')", WAIT);
            browser.eval("window.notReloaded = true");
            try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(
                    Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, system.infra.bootstrapServers()),
                    new StringSerializer(),
                    new ByteArraySerializer())) {
                producer.send(new ProducerRecord<>(
                                Topics.JOB_COMMANDS.name(),
                                system.key("poison"),
                                "this is not a command".getBytes(StandardCharsets.UTF_8)))
                        .get();
            }
            browser.waitFor(
                    "document.getElementById('letters').textContent.includes('" + system.key("poison") + "')", WAIT);
            assertThat(browser.eval("window.notReloaded === true").asBoolean()).isTrue();
            shot(browser, shots, "deadletters");

            // Abort from a job's page, through the streams-app's REST API.
            system.submit(job("long-job", system.schedulerName, "120s"));
            awaitStatus(system, "long-job");
            awaitConsole(system, "/api/jobs/" + ns + "/long-job");
            browser.go(console + "#/jobs/" + ns + "/long-job");
            browser.waitFor("document.querySelector('.actions .phase[data-phase=Running]')", WAIT);
            browser.click("button:text-is('Abort')");
            browser.waitFor("document.getElementById('action-status').textContent.includes('accepted')", WAIT);
            browser.waitFor(
                    "['Aborting', 'Aborted'].includes(document.querySelector('.actions .phase').dataset.phase)", WAIT);
            shot(browser, shots, "job-aborted");
        } catch (AssertionError | RuntimeException e) {
            throw new AssertionError(e.getMessage() + system.logs(), e);
        }
    }

    /** Until the job's first status is out (its page answers 404 before). */
    private static void awaitStatus(LaharSystem system, String job) {
        org.awaitility.Awaitility.await()
                .atMost(WAIT)
                .until(() -> system.records.status(system.key(job)).isPresent());
    }

    /** Until the console's API answers {@code path} with 200. */
    private static void awaitConsole(LaharSystem system, String path) {
        java.net.URI uri = system.console().uri(path);
        try (java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient()) {
            org.awaitility.Awaitility.await()
                    .atMost(WAIT)
                    .until(() -> http.send(
                                            java.net.http.HttpRequest.newBuilder(uri)
                                                    .build(),
                                            java.net.http.HttpResponse.BodyHandlers.discarding())
                                    .statusCode()
                            == 200);
        }
    }

    private static void shot(Browser browser, Path shots, String name) {
        assertThat(browser.eval("document.documentElement.scrollWidth").asInt())
                .as(name + " fits 1280 px")
                .isLessThanOrEqualTo(1280);
        JsonNode problems = browser.problems();
        assertThat(problems.path("errors")).as(name + ": script errors").isEmpty();
        assertThat(problems.path("outside"))
                .as(name + ": requests to other origins")
                .isEmpty();
        browser.screenshot(shots.resolve(name + ".png"), false);
    }

    /** A job of a ps and two workers, each pod asking 1 cpu and running {@code duration} on a simulated node. */
    private static String job(String name, String schedulerName, String duration) {
        return """
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata:
                  name: %s
                spec:
                  minAvailable: 3
                  schedulerName: %s
                  tasks:
                  - name: ps
                    replicas: 1
                    template:
                      metadata:
                        annotations:
                          lahar.io/sim-duration: %s
                      spec:
                        containers:
                        - name: ps
                          image: ps-img
                          resources: {requests: {cpu: "1", memory: 1Gi}}
                  - name: worker
                    replicas: 2
                    template:
                      metadata:
                        annotations:
                          lahar.io/sim-duration: %s
                      spec:
                        containers:
                        - name: worker
                          image: worker-img
                          resources: {requests: {cpu: "1", memory: 2Gi}}
                """.formatted(name, schedulerName, duration, duration);
    }
}
