package io.lahar.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PlanCommandTest {

    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private static final String NODES = """
            apiVersion: v1
            kind: Node
            metadata: {name: n0}
            status: {allocatable: {cpu: "4", memory: 16Gi}}
            ---
            apiVersion: v1
            kind: Node
            metadata: {name: n1}
            status: {allocatable: {cpu: "4", memory: 16Gi}}
            """;

    private static final String JOBS = """
            apiVersion: batch.volcano.sh/v1alpha1
            kind: Job
            metadata: {name: train, creationTimestamp: "2026-01-01T00:00:00Z"}
            spec:
              minAvailable: 3
              tasks:
              - name: worker
                replicas: 3
                template:
                  spec:
                    containers: [{name: c, image: x, resources: {requests: {cpu: "2", memory: 1Gi}}}]
            ---
            apiVersion: batch.volcano.sh/v1alpha1
            kind: Job
            metadata: {name: nowhere}
            spec:
              queue: missing
              tasks:
              - name: w
                replicas: 1
                template: {spec: {containers: [{name: c, image: x}]}}
            """;

    private int plan(String... args) {
        String[] all = new String[args.length + 1];
        all[0] = "plan";
        System.arraycopy(args, 0, all, 1, args.length);
        return Lahar.run(all, new PrintWriter(out), new PrintWriter(err));
    }

    private Path file(String name, String text) throws Exception {
        Path p = dir.resolve(name);
        Files.writeString(p, text);
        return p;
    }

    private JsonNode output() throws Exception {
        return new ObjectMapper(new YAMLFactory()).readTree(out.toString());
    }

    @Test
    void plansSeveralSnapshotFilesAndPrintsTheFourSections() throws Exception {
        int code = plan(
                "-f",
                file("nodes.yaml", NODES).toString(),
                "-f",
                file("jobs.yaml", JOBS).toString());
        assertThat(code).as(err.toString()).isZero();
        JsonNode y = output();
        assertThat(y.path("bindings")).hasSize(3);
        for (JsonNode b : y.path("bindings")) {
            assertThat(b.path("namespace").asText()).isEqualTo("default");
            assertThat(b.path("pod").asText()).startsWith("train-worker-");
            assertThat(b.path("node").asText()).isIn("n0", "n1");
            assertThat(b.path("action").asText()).isEqualTo("allocate");
        }
        List<String> groups = new ArrayList<>();
        y.path("podGroups")
                .forEach(g -> groups.add(
                        g.path("name").asText() + ":" + g.path("phase").asText()));
        assertThat(groups).containsExactly("nowhere:Rejected", "train:Running");
        JsonNode rejected = y.path("podGroups").get(0);
        assertThat(rejected.path("errors").toString()).contains("spec.queue").contains("missing");
        assertThat(y.path("queues").findValuesAsText("name")).contains("default");
        assertThat(y.path("evictions").isArray()).isTrue();
        assertThat(y.path("converged").asBoolean()).isTrue();
    }

    @Test
    void exactlyNSessions() throws Exception {
        int code = plan("-f", file("s.yaml", NODES + "---\n" + JOBS).toString(), "--sessions", "1");
        assertThat(code).isZero();
        JsonNode y = output();
        assertThat(y.path("sessions").asInt()).isEqualTo(1);
        assertThat(y.path("bindings")).isEmpty(); // enqueued in session 1, pods created, placed in session 2
    }

    @Test
    void aSchedulerConfWithPreemptIsUsed() throws Exception {
        Path conf = file("conf.yaml", """
                actions: "enqueue, allocate, backfill"
                tiers:
                - plugins: [{name: gang}, {name: predicates}]
                """);
        int code = plan("-f", file("s.yaml", NODES + "---\n" + JOBS).toString(), "--conf", conf.toString());
        assertThat(code).as(err.toString()).isZero();
        // Without proportion there is no deserved share.
        assertThat(output().path("queues").get(0).has("deserved")).isFalse();
    }

    @Test
    void aSchedulerConfWithTdmAndShuffleLendsARevocableNodeInsideItsWindow() throws Exception {
        Path conf = file("conf.yaml", """
                actions: "enqueue, allocate, backfill, shuffle"
                tiers:
                - plugins:
                  - {name: gang}
                  - {name: tdm, arguments: {tdm.revocable-zone.night: "20:00-23:00", tdm.evict.period: 5m}}
                  - {name: predicates}
                """);
        String input = """
                apiVersion: v1
                kind: Node
                metadata: {name: lent, labels: {volcano.sh/revocable-zone: night}}
                status: {allocatable: {cpu: "4", memory: 16Gi}}
                ---
                apiVersion: v1
                kind: Node
                metadata: {name: own}
                status: {allocatable: {cpu: "4", memory: 16Gi}}
                ---
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata: {name: batch, annotations: {volcano.sh/revocable-zone: "*"}}
                spec:
                  minAvailable: 2
                  tasks:
                  - name: w
                    replicas: 2
                    template:
                      spec:
                        containers: [{name: c, image: x, resources: {requests: {cpu: "2", memory: 1Gi}}}]
                """;
        Path s = file("s.yaml", input);
        assertThat(plan("-f", s.toString(), "--conf", conf.toString(), "--now", "2026-01-01T21:00:00Z"))
                .as(err.toString())
                .isZero();
        assertThat(output().path("bindings").findValuesAsText("node")).containsExactly("lent", "lent");
        out.getBuffer().setLength(0);
        assertThat(plan("-f", s.toString(), "--conf", conf.toString(), "--now", "2026-01-01T09:00:00Z"))
                .as(err.toString())
                .isZero();
        assertThat(output().path("bindings").findValuesAsText("node")).containsExactly("own", "own");
    }

    @Test
    void badInputIsExitTwoWithEveryProblemAndItsPath() throws Exception {
        String bad = """
                apiVersion: v1
                kind: Node
                metadata: {name: n0}
                status: {allocatable: {cpu: lots}}
                ---
                apiVersion: v1
                kind: Pod
                metadata: {name: p}
                spec: {nodeName: ghost, containers: [{name: c, image: x}]}
                ---
                apiVersion: example.com/v1
                kind: Widget
                """;
        int code = plan("-f", file("bad.yaml", bad).toString());
        assertThat(code).isEqualTo(Lahar.EXIT_INPUT);
        assertThat(err.toString())
                .contains(
                        "error: " + dir.resolve("bad.yaml") + "[0].status.allocatable",
                        "bad.yaml[1].spec.nodeName",
                        "warning: ignored " + dir.resolve("bad.yaml") + "[2]: Widget example.com/v1");
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void podAntiAffinityAndSpreadInATemplateAreCarriedOut() throws Exception {
        String jobs = """
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata: {name: apart}
                spec:
                  tasks:
                  - name: worker
                    replicas: 2
                    template:
                      metadata: {labels: {app: apart}}
                      spec:
                        containers: [{name: c, image: x, resources: {requests: {cpu: "1", memory: 1Gi}}}]
                        affinity:
                          podAntiAffinity:
                            requiredDuringSchedulingIgnoredDuringExecution:
                            - labelSelector: {matchLabels: {app: apart}}
                              topologyKey: kubernetes.io/hostname
                """;
        assertThat(plan("-f", file("s.yaml", NODES + "---\n" + jobs).toString()))
                .isZero();
        JsonNode bindings = output().path("bindings");
        assertThat(bindings).hasSize(2);
        assertThat(bindings.get(0).path("node").asText())
                .isNotEqualTo(bindings.get(1).path("node").asText());
    }

    @Test
    void aMalformedConstraintOrUnknownArgumentIsExitTwoWithItsPath() throws Exception {
        String pod = """
                apiVersion: v1
                kind: Pod
                metadata: {name: p}
                spec:
                  nodeName: n0
                  containers: [{name: c, image: x}]
                  topologySpreadConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: Sometimes}]
                """;
        assertThat(plan("-f", file("p.yaml", NODES + "---\n" + pod).toString())).isEqualTo(Lahar.EXIT_INPUT);
        assertThat(err.toString())
                .contains("p.yaml[2].spec.topologySpreadConstraints[0].whenUnsatisfiable: Unsupported value");
        String conf = """
                actions: "enqueue, allocate"
                tiers:
                - plugins:
                  - name: nodeorder
                    arguments: {nodeaffinity.wieght: 2}
                """;
        assertThat(plan(
                        "-f",
                        file("s.yaml", NODES).toString(),
                        "--conf",
                        file("c.yaml", conf).toString()))
                .isEqualTo(Lahar.EXIT_INPUT);
        assertThat(err.toString())
                .contains(
                        "tiers[0].plugins[0].arguments.nodeaffinity.wieght: unknown argument of plugin \"nodeorder\"");
    }

    @Test
    void aJobPastItsSlaWaitingTimeIsEnqueuedAtNow() throws Exception {
        String job = """
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata:
                  name: big
                  creationTimestamp: "2026-01-01T00:00:00Z"
                  annotations: {sla-waiting-time: 30m}
                spec:
                  tasks:
                  - name: w
                    replicas: 5
                    template: {spec: {containers: [{name: c, image: x, resources: {requests: {cpu: "4"}}}]}}
                """;
        String conf = """
                actions: "enqueue"
                tiers:
                - plugins:
                  - name: sla
                - plugins:
                  - name: overcommit
                """;
        Path s = file("s.yaml", NODES + "---\n" + job);
        Path c = file("c.yaml", conf);
        assertThat(plan("-f", s.toString(), "--conf", c.toString(), "--sessions", "1"))
                .isZero();
        assertThat(output().path("podGroups").get(0).path("phase").asText()).isEqualTo("Pending");
        out.getBuffer().setLength(0);
        assertThat(plan("-f", s.toString(), "--conf", c.toString(), "--sessions", "1", "--now", "2026-01-01T00:31:00Z"))
                .isZero();
        assertThat(output().path("podGroups").get(0).path("phase").asText()).isEqualTo("Inqueue");
        assertThat(plan("-f", s.toString(), "--now", "yesterday")).isEqualTo(Lahar.EXIT_INPUT);
        assertThat(err.toString()).contains("--now: not an RFC 3339 time");
    }

    @Test
    void aBadConfOrMissingFileOrZeroSessionsIsExitTwo() throws Exception {
        Path s = file("s.yaml", NODES);
        assertThat(plan(
                        "-f",
                        s.toString(),
                        "--conf",
                        file("c.yaml", "actions: \"teleport\"\ntiers: []\n").toString()))
                .isEqualTo(Lahar.EXIT_INPUT);
        assertThat(err.toString()).contains("unknown action \"teleport\"");
        assertThat(plan("-f", dir.resolve("nope.yaml").toString())).isEqualTo(Lahar.EXIT_INPUT);
        assertThat(plan("-f", s.toString(), "--sessions", "0")).isEqualTo(Lahar.EXIT_INPUT);
        assertThat(plan()).isEqualTo(Lahar.EXIT_INPUT);
    }

    @Test
    void otherKindsAreIgnoredWithAWarning() throws Exception {
        String more = """
                apiVersion: flow.volcano.sh/v1alpha1
                kind: JobFlow
                metadata: {name: flow}
                spec: {flows: [{name: a}]}
                ---
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: web}
                """;
        int code = plan(
                "-f",
                file("s.yaml", NODES + "---\n" + JOBS).toString(),
                "-f",
                file("more.yaml", more).toString());
        assertThat(code).as(err.toString()).isZero();
        assertThat(err.toString()).contains("warning: ignored", "JobFlow flow", "Deployment apps/v1");
        assertThat(output().path("bindings")).hasSize(3);
    }
}
