package io.lahar.cli.flow;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.lahar.cli.Lahar;
import io.lahar.cli.job.Output;
import io.lahar.core.api.Manifests;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code lahar flow} against a stand-in API: the requests it sends, what it prints, how it fails. */
class FlowVerbsTest {

    private static final String TWO_FLOWS = """
            apiVersion: flow.volcano.sh/v1alpha1
            kind: JobFlow
            metadata:
              name: first
            spec:
              flows:
              - name: a
            ---
            apiVersion: flow.volcano.sh/v1alpha1
            kind: JobFlow
            metadata:
              name: second
            spec:
              jobRetainPolicy: delete
              flows:
              - name: a
              - name: b
                dependsOn:
                  targets: [a]
            """;

    private static final String VIEWED = """
            {"apiVersion":"flow.volcano.sh/v1alpha1","kind":"JobFlow",
             "metadata":{"name":"test","namespace":"default","creationTimestamp":"2026-11-29T10:00:00Z"},
             "spec":{"jobRetainPolicy":"retain","flows":[{"name":"a"},{"name":"b","dependsOn":{"targets":["a"]}},
                     {"name":"c","dependsOn":{"targets":["a","b"]}}]},
             "status":{"pendingJobs":[],"runningJobs":["test-b"],"completedJobs":["test-a"],"failedJobs":[],
                       "terminatedJobs":[],"unKnowJobs":[],
                       "jobStatusList":[
                         {"name":"test-b","state":"Running","startTimestamp":"2026-11-29T10:00:12Z","restartCount":1},
                         {"name":"test-a","state":"Completed","startTimestamp":"2026-11-29T10:00:01Z",
                          "endTimestamp":"2026-11-29T10:00:11Z","restartCount":0}],
                       "conditions":{"test-a":{"phase":"Completed","createTime":"2026-11-29T10:00:01Z","runningDuration":"10s",
                                               "taskStatusCount":{"default-nginx":{"phase":{"Succeeded":1}}}},
                                     "test-b":{"phase":"Running","createTime":"2026-11-29T10:00:12Z",
                                               "taskStatusCount":{"default-nginx":{"phase":{"Running":1}}}}},
                       "state":{"phase":"Running"}}}""";

    private FakeApi api;

    @BeforeEach
    void start() throws Exception {
        api = new FakeApi();
    }

    @AfterEach
    void stop() {
        api.close();
    }

    private static String created(String ns, String name) {
        return "{\"apiVersion\":\"flow.volcano.sh/v1alpha1\",\"kind\":\"JobFlow\",\"metadata\":{\"name\":\"" + name
                + "\",\"namespace\":\"" + ns
                + "\"},\"spec\":{\"jobRetainPolicy\":\"retain\",\"flows\":[{\"name\":\"a\"}]}}";
    }

    @Test
    void createSendsOneJsonRequestPerDocumentInTheNamespaceAskedFor(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("flows.yaml"), TWO_FLOWS);
        api.reply(201, created("ml", "first")).reply(201, created("ml", "second"));

        assertThat(api.lahar("flow", "create", "-f", file.toString(), "-n", "ml", "--token", "s3cret"))
                .isZero();

        assertThat(api.seen)
                .extracting(FakeApi.Seen::line)
                .containsExactly("POST /api/v1/jobflows", "POST /api/v1/jobflows");
        assertThat(api.seen).allSatisfy(s -> {
            assertThat(s.contentType()).isEqualTo("application/json");
            assertThat(s.authorization()).isEqualTo("Bearer s3cret");
            assertThat(s.requestId()).hasSize(36);
        });
        assertThat(api.seen).extracting(FakeApi.Seen::requestId).doesNotHaveDuplicates();
        JsonNode second = Manifests.jsonMapper().readTree(api.seen.get(1).body());
        assertThat(second.path("kind").asText()).isEqualTo("JobFlow");
        assertThat(second.path("metadata").path("name").asText()).isEqualTo("second");
        assertThat(second.path("metadata").path("namespace").asText()).isEqualTo("ml");
        assertThat(second.path("spec")
                        .path("flows")
                        .get(1)
                        .path("dependsOn")
                        .path("targets")
                        .get(0)
                        .asText())
                .isEqualTo("a");
        assertThat(api.out.toString()).isEqualTo("Created JobFlow: ml/first\nCreated JobFlow: ml/second\n");
        assertThat(api.err.toString()).isEmpty();
    }

    @Test
    void createAcceptsAJsonArrayAndPrintsTheAdmittedFlowsOnRequest(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("flows.json"), """
                [{"apiVersion":"flow.volcano.sh/v1alpha1","kind":"JobFlow","metadata":{"name":"first","namespace":"ml"},"spec":{"flows":[{"name":"a"}]}},
                 {"apiVersion":"flow.volcano.sh/v1alpha1","kind":"JobFlow","metadata":{"name":"second","namespace":"ml"},"spec":{"flows":[{"name":"a"}]}}]""");
        api.reply(201, created("ml", "first")).reply(201, created("ml", "second"));

        assertThat(api.lahar("flow", "create", "-f", file.toString(), "-o", "yaml"))
                .isZero();

        assertThat(api.seen).hasSize(2);
        assertThat(Manifests.jsonMapper()
                        .readTree(api.seen.get(0).body())
                        .path("metadata")
                        .path("namespace")
                        .asText())
                .isEqualTo("ml");
        // Two YAML documents, the defaults the server filled in included.
        assertThat(api.out.toString())
                .contains("name: first")
                .contains("---\n")
                .contains("name: second")
                .contains("jobRetainPolicy: retain");
    }

    @Test
    void aDocumentOfAnotherKindIsReportedAndNotSentWhileTheOthersGo(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("mixed.yaml"), """
                apiVersion: flow.volcano.sh/v1alpha1
                kind: JobTemplate
                metadata:
                  name: a
                spec:
                  tasks: []
                ---
                apiVersion: flow.volcano.sh/v1alpha1
                kind: JobFlow
                metadata:
                  name: first
                spec:
                  flows:
                  - name: a
                """);
        api.reply(201, created("default", "first"));

        assertThat(api.lahar("flow", "create", "-f", file.toString())).isEqualTo(Lahar.EXIT_INPUT);

        assertThat(api.seen).singleElement().satisfies(s -> assertThat(s.body()).contains("\"name\":\"first\""));
        assertThat(api.err.toString()).contains("document 1: kind JobTemplate (default/a) is not a JobFlow; not sent");
        assertThat(api.out.toString()).isEqualTo("Created JobFlow: default/first\n");
    }

    @Test
    void aDocumentOfAnotherNamespaceThanTheOneAskedForIsNotSent(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(
                dir.resolve("flow.yaml"),
                "apiVersion: flow.volcano.sh/v1alpha1\nkind: JobFlow\nmetadata:\n  name: f\n  namespace: prod\nspec:\n  flows:\n  - name: a\n");

        assertThat(api.lahar("flow", "create", "-f", file.toString(), "-n", "ml"))
                .isEqualTo(Lahar.EXIT_INPUT);

        assertThat(api.seen).isEmpty();
        assertThat(api.err.toString())
                .contains("metadata.namespace: prod does not match the namespace ml given with -n; not sent");
    }

    @Test
    void aRejectedFlowPrintsEveryReasonAndTheNextDocumentStillGoes(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("flows.yaml"), TWO_FLOWS);
        api.reply(422, """
                {"error":"JobFlow default/first rejected","violations":[
                 {"path":"spec.flows[1].dependsOn.targets[0]","message":"flow 'x' is not in this JobFlow"},
                 {"path":"spec.flows[2]","message":"cycle: b -> c -> b"}]}""").reply(201, created("default", "second"));

        assertThat(api.lahar("flow", "create", "-f", file.toString())).isEqualTo(Lahar.EXIT_REJECTED);

        assertThat(api.seen).hasSize(2);
        assertThat(api.err.toString())
                .contains("error: create JobFlow default/first: JobFlow default/first rejected (HTTP 422)")
                .contains("error: spec.flows[1].dependsOn.targets[0]: flow 'x' is not in this JobFlow")
                .contains("error: spec.flows[2]: cycle: b -> c -> b");
        assertThat(api.out.toString()).isEqualTo("Created JobFlow: default/second\n");
    }

    @Test
    void anExistingFlowIsAConflictThatExitsOne(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(
                dir.resolve("flow.yaml"),
                "apiVersion: flow.volcano.sh/v1alpha1\nkind: JobFlow\nmetadata:\n  name: f\nspec:\n  flows:\n  - name: a\n");
        api.reply(409, "{\"error\":\"JobFlow default/f already exists; a JobFlow can not be updated\"}");

        assertThat(api.lahar("flow", "create", "-f", file.toString())).isEqualTo(Lahar.EXIT_REJECTED);
        assertThat(api.err.toString()).contains("already exists").contains("(HTTP 409)");
    }

    @Test
    void unreadableOrUnparsableFilesExitTwoWithoutARequest(@TempDir Path dir) throws Exception {
        assertThat(api.lahar("flow", "create", "-f", dir.resolve("missing.yaml").toString()))
                .isEqualTo(Lahar.EXIT_INPUT);
        assertThat(api.err.toString()).contains("cannot read");

        Path broken = Files.writeString(dir.resolve("broken.yaml"), "kind: JobFlow\nmetadata: [unclosed\n");
        assertThat(api.lahar("flow", "create", "-f", broken.toString())).isEqualTo(Lahar.EXIT_INPUT);
        assertThat(api.err.toString()).contains("cannot parse");

        Path empty = Files.writeString(dir.resolve("empty.yaml"), "---\n");
        assertThat(api.lahar("flow", "create", "-f", empty.toString())).isEqualTo(Lahar.EXIT_INPUT);
        assertThat(api.err.toString()).contains("holds no JobFlow");
        assertThat(api.seen).isEmpty();
    }

    @Test
    void aWriteRetriedOnUnavailableCarriesTheSameRequestId(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(
                dir.resolve("flow.yaml"),
                "apiVersion: flow.volcano.sh/v1alpha1\nkind: JobFlow\nmetadata:\n  name: first\nspec:\n  flows:\n  - name: a\n");
        api.reply(503, "{\"error\":\"Kafka Streams is REBALANCING\"}").reply(201, created("default", "first"));

        assertThat(api.lahar("flow", "create", "-f", file.toString())).isZero();

        assertThat(api.seen).hasSize(2);
        assertThat(api.seen.get(0).requestId()).isEqualTo(api.seen.get(1).requestId());
        assertThat(api.out.toString()).isEqualTo("Created JobFlow: default/first\n");
    }

    @Test
    void listAsksForTheNamespaceAndPhaseAndPrintsTheTable() {
        api.reply(200, """
                [{"namespace":"ml","name":"test","creationTimestamp":"2026-11-29T10:00:00Z","phase":"Running","jobs":5,
                  "pendingJobs":1,"runningJobs":1,"completedJobs":2,"failedJobs":0,"terminatedJobs":0,"unKnowJobs":0}]""");

        assertThat(api.lahar("flow", "list", "-n", "ml", "--phase", "Running")).isZero();
        assertThat(api.seen.get(0).line()).isEqualTo("GET /api/v1/jobflows?namespace=ml&phase=Running");
        String[] lines = api.out.toString().split("\n");
        assertThat(lines[0].split("\\s+"))
                .containsExactly(
                        "Name", "Namespace", "Phase", "Jobs", "Pending", "Running", "Completed", "Failed", "Age");
        assertThat(lines[1].split("\\s+")).startsWith("test", "ml", "Running", "5", "1", "1", "2", "0");

        assertThat(api.lahar("flow", "list", "--all-namespaces", "-o", "json")).isZero();
        assertThat(api.seen.get(1).line()).isEqualTo("GET /api/v1/jobflows");
        assertThat(api.seen.get(1).requestId()).as("reads carry no request id").isNull();
        assertThat(api.out.toString()).contains("\"completedJobs\" : 2");
    }

    @Test
    void anEmptyListSaysSo() {
        api.reply(200, "[]");
        assertThat(api.lahar("flow", "list")).isZero();
        assertThat(api.seen.get(0).line()).isEqualTo("GET /api/v1/jobflows?namespace=default");
        assertThat(api.out.toString()).isEqualTo("No resources found\n");
    }

    @Test
    void viewDescribesTheJobsInFlowOrderWithTheirStateAndTheConditions() {
        api.reply(200, VIEWED);

        assertThat(api.lahar("flow", "view", "test")).isZero();

        assertThat(api.seen.get(0).line()).isEqualTo("GET /api/v1/jobflows/default/test");
        String text = api.out.toString();
        assertThat(row(text, "Phase:")).containsExactly("Phase:", "Running");
        assertThat(text)
                .containsPattern("Job Retain Policy: +retain\n")
                .containsPattern("Jobs: +Pending 0, Running 1, Completed 1, Failed 0, Terminated 0, Unknown 0\n");
        assertThat(row(text, "a "))
                .containsExactly("a", "test-a", "-", "Completed", "2026-11-29T10:00:01Z", "2026-11-29T10:00:11Z", "0");
        assertThat(row(text, "b ")).containsExactly("b", "test-b", "a", "Running", "2026-11-29T10:00:12Z", "-", "1");
        assertThat(row(text, "c ")).containsExactly("c", "test-c", "a,b", "-", "-", "-", "-");
        // Jobs in the order of spec.flows, whatever the order of jobStatusList.
        assertThat(text.indexOf("test-a")).isLessThan(text.indexOf("test-b"));
        assertThat(text).contains("Conditions:");
        assertThat(row(text, "test-a "))
                .containsExactly(
                        "test-a", "Completed", "2026-11-29T10:00:01Z", "10s", "default-nginx:", "Succeeded", "1");
        assertThat(row(text, "test-b "))
                .containsExactly("test-b", "Running", "2026-11-29T10:00:12Z", "-", "default-nginx:", "Running", "1");
    }

    @Test
    void viewPrintsTheWholeFlowWithItsStatusOnRequest() throws Exception {
        api.reply(200, VIEWED);

        assertThat(api.lahar("flow", "view", "test", "-n", "default", "-o", "json"))
                .isZero();

        JsonNode printed = Manifests.jsonMapper().readTree(api.out.toString());
        assertThat(printed).isEqualTo(Manifests.jsonMapper().readTree(VIEWED));
    }

    @Test
    void viewOrDeleteOfAnUnknownFlowExitsOne() {
        api.reply(404, "{\"error\":\"JobFlow ml/nope not found\"}");

        assertThat(api.lahar("flow", "view", "nope", "-n", "ml")).isEqualTo(Lahar.EXIT_REJECTED);
        assertThat(api.lahar("flow", "delete", "nope", "-n", "ml")).isEqualTo(Lahar.EXIT_REJECTED);

        assertThat(api.err.toString())
                .contains("error: view JobFlow ml/nope: JobFlow ml/nope not found (HTTP 404)")
                .contains("error: delete JobFlow ml/nope: JobFlow ml/nope not found (HTTP 404)");
        assertThat(api.out.toString()).isEmpty();
    }

    @Test
    void deleteSendsTheTokenAndARequestId() {
        api.reply(
                200,
                "{\"requestId\":\"r\",\"kind\":\"JobFlow\",\"namespace\":\"team a\",\"name\":\"test\",\"accepted\":true}");

        assertThat(api.lahar("flow", "delete", "test", "-n", "team a", "--token", "t"))
                .isZero();

        assertThat(api.seen).singleElement().satisfies(s -> {
            assertThat(s.line()).isEqualTo("DELETE /api/v1/jobflows/team%20a/test");
            assertThat(s.authorization()).isEqualTo("Bearer t");
            assertThat(s.requestId()).isNotBlank();
        });
        assertThat(api.out.toString()).isEqualTo("Deleted JobFlow: team a/test\n");
    }

    @Test
    void anUnreachableServerSaysSoAndExitsThree() {
        String url = api.url();
        api.close();
        int code = Lahar.run(
                new String[] {"flow", "list", "--server", url}, new PrintWriter(api.out), new PrintWriter(api.err));
        assertThat(code).isEqualTo(Output.EXIT_UNAVAILABLE);
        assertThat(api.err.toString()).contains("cannot reach the Lahar API").contains("is streams-app running?");
    }

    @Test
    void aVerbIsRequired() {
        assertThat(Lahar.run(new String[] {"flow"}, new PrintWriter(api.out), new PrintWriter(api.err)))
                .isEqualTo(Lahar.EXIT_INPUT);
        assertThat(api.err.toString()).contains("a flow verb is required");
    }

    @Test
    void everyVerbHasHelp() {
        assertThat(Lahar.run(
                        new String[] {"flow", "create", "--help"}, new PrintWriter(api.out), new PrintWriter(api.err)))
                .isZero();
        assertThat(api.out.toString())
                .contains("Usage: lahar flow create")
                .contains("--filename")
                .contains("--server");
        assertThat(api.seen).isEmpty();
    }

    /** The cells of the first line starting with {@code prefix}. */
    static String[] row(String text, String prefix) {
        return text.lines()
                .filter(l -> l.startsWith(prefix))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no line " + prefix + " in\n" + text))
                .split("\\s+");
    }
}
