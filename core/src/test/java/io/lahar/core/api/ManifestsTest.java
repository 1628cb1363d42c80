package io.lahar.core.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lahar.core.resource.Quantity;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class ManifestsTest {

    static final Path EXAMPLES = Path.of("..", "examples");

    static Stream<Path> exampleFiles() throws IOException {
        try (Stream<Path> files = Files.list(EXAMPLES)) {
            return files
                    .filter(p -> p.toString().endsWith(".yaml"))
                    .filter(p -> !p.getFileName().toString().startsWith("invalid-"))
                    .sorted()
                    .toList()
                    .stream();
        }
    }

    @ParameterizedTest
    @MethodSource("exampleFiles")
    void everyExampleParsesAndRoundTrips(Path file) throws IOException {
        List<Manifest> manifests = Manifests.readAll(Files.readString(file));
        assertThat(manifests).isNotEmpty();
        for (Manifest m : manifests) {
            assertThat(m.name()).isNotEmpty();
            Manifest again = Manifests.read(Manifests.toYaml(m));
            assertThat(again).isEqualTo(m);
            assertThat(Manifests.read(Manifests.toJson(m))).isEqualTo(m);
        }
    }

    @Test
    void readsTheTfJobTyped() throws IOException {
        Job job = Manifests.read(Files.readString(EXAMPLES.resolve("tf-job.yaml")), Job.class);
        assertThat(job.apiVersion()).isEqualTo(Job.API_VERSION);
        assertThat(job.spec().minAvailable()).isEqualTo(6);
        assertThat(job.spec().tasks()).extracting(TaskSpec::name).containsExactly("ps", "worker");
        assertThat(job.spec().totalReplicas()).isEqualTo(6);
        LifecyclePolicy p = job.spec().policies().get(0);
        assertThat(p.eventValues()).containsExactly(Event.ANY);
        assertThat(p.actionValue()).contains(Action.RESTART_JOB);
        assertThat(job.spec().tasks().get(1).pod().containers())
                .singleElement()
                .satisfies(c -> assertThat(c.image()).contains("worker-img"));
    }

    @Test
    void readsEveryKindOfTheSeeds() throws IOException {
        assertThat(Manifests.readAll(Files.readString(EXAMPLES.resolve("jobflow-templates.yaml"))))
                .hasSize(5)
                .allMatch(m -> m instanceof JobTemplate);
        JobFlow flow = Manifests.read(Files.readString(EXAMPLES.resolve("jobflow.yaml")), JobFlow.class);
        assertThat(flow.spec().jobRetainPolicy()).isEqualTo("delete");
        assertThat(flow.spec().flows().get(4).dependsOn().targets()).containsExactly("c", "d");
        List<Manifest> queues = Manifests.readAll(Files.readString(EXAMPLES.resolve("queues.yaml")));
        Queue high = (Queue) queues.get(0);
        assertThat(high.spec().weight()).isEqualTo(3);
        assertThat(high.spec().capability()).containsEntry("cpu", "8");
        assertThat(((Queue) queues.get(1)).spec().reclaimable()).isFalse();
        PriorityClass pc =
                Manifests.read(Files.readString(EXAMPLES.resolve("priority-classes.yaml")), PriorityClass.class);
        assertThat(pc.value()).isEqualTo(100);
    }

    @Test
    void podTemplateResourcesAreTyped() throws IOException {
        Job job = Manifests.read(Files.readString(EXAMPLES.resolve("tf-dist-mnist.yaml")), Job.class);
        PodTemplate.Container c = job.spec().tasks().get(0).pod().containers().get(0);
        assertThat(c.limits()).containsEntry("cpu", "2").containsEntry("memory", "8Gi");
        assertThat(job.spec().tasks().get(0).pod().effectiveRequests().get("memory"))
                .isEqualByComparingTo("8589934592");
    }

    @Test
    void writesStableYamlWithoutNulls() {
        String yaml = Manifests.toYaml(new Queue(
                Queue.API_VERSION,
                Queue.KIND,
                ObjectMeta.named("q"),
                new Queue.QueueSpec(2, null, true, null, null, null, null, null, null, null, null),
                null));
        assertThat(yaml).isEqualTo("""
                apiVersion: scheduling.volcano.sh/v1beta1
                kind: Queue
                metadata:
                  name: q
                spec:
                  weight: 2
                  reclaimable: true
                """);
    }

    @Test
    void starEventIsQuotedSoItReadsBack() {
        Job job = new Job(
                Job.API_VERSION,
                Job.KIND,
                ObjectMeta.named("j"),
                new JobSpec(
                        null,
                        null,
                        null,
                        null,
                        List.of(LifecyclePolicy.onEvent(Event.ANY, Action.RESTART_JOB)),
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null),
                null);
        assertThat(Manifests.read(Manifests.toYaml(job))).isEqualTo(job);
    }

    @Test
    void stringsThatLookLikeNumbersOrBooleansStayStrings() {
        java.util.Map<String, String> labels = new java.util.LinkedHashMap<>();
        for (String v :
                List.of("yes", "null", "1.5", "0x1F", "~", "true", "", "1e3", "on", "012", "y", "8", "1:30", ".inf")) {
            labels.put("k" + labels.size(), v);
        }
        Queue q = new Queue(Queue.API_VERSION, Queue.KIND, ObjectMeta.named("q").withLabels(labels), null, null);
        String yaml = Manifests.toYaml(q);
        assertThat(Manifests.read(yaml, Queue.class).metadata().labels()).isEqualTo(labels);
        assertThat(yaml).contains("k3: \"0x1F\"", "k7: \"1e3\"", "k10: \"y\"");
    }

    @Test
    void readsJsonAndMultiDocumentYamlAndLists() {
        assertThat(
                        Manifests.readAll(
                                "{\"apiVersion\":\"scheduling.volcano.sh/v1beta1\",\"kind\":\"Queue\",\"metadata\":{\"name\":\"a\"}}"))
                .singleElement()
                .isInstanceOf(Queue.class);
        assertThat(Manifests.readAll("""
                ---
                apiVersion: scheduling.volcano.sh/v1beta1
                kind: Queue
                metadata: {name: a}
                ---
                ---
                apiVersion: v1
                kind: List
                items:
                - apiVersion: scheduling.volcano.sh/v1beta1
                  kind: Queue
                  metadata: {name: b}
                """)).extracting(Manifest::name).containsExactly("a", "b");
    }

    @Test
    void unknownKindIsFlagged() {
        assertThatThrownBy(() -> Manifests.readAll("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"))
                .isInstanceOfSatisfying(ManifestException.class, e -> {
                    assertThat(e.unknownKind()).isTrue();
                    assertThat(e.getMessage()).contains("unknown kind \"Pod\"");
                });
    }

    @Test
    void wrongTypesNameTheirPath() {
        assertThatThrownBy(() -> Manifests.readAll("""
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata: {name: j}
                spec:
                  tasks:
                  - name: a
                    replicas: many
                """))
                .isInstanceOf(ManifestException.class)
                .hasMessage("cannot read Job \"j\": spec.tasks[0].replicas: must be an integer");
        assertThatThrownBy(() -> Manifests.readAll("a: [b\n"))
                .isInstanceOf(ManifestException.class)
                .hasMessageStartingWith("cannot parse");
    }

    @Test
    void goDurationsAndQuantities() {
        assertThat(GoDuration.parse("1m30s")).contains(java.time.Duration.ofSeconds(90));
        assertThat(GoDuration.parse("1.5h")).contains(java.time.Duration.ofMinutes(90));
        assertThat(GoDuration.parse("300ms")).contains(java.time.Duration.ofMillis(300));
        assertThat(GoDuration.parse("10")).isEmpty();
        assertThat(GoDuration.parse("abc")).isEmpty();
        assertThat(Quantity.parse("500m").milliValue()).isEqualTo(500L);
        assertThat(Quantity.parse("2").milliValue()).isEqualTo(2000L);
        assertThat(Quantity.parse("1Gi").amount()).isEqualByComparingTo("1073741824");
        assertThat(Quantity.parse("1e3").amount()).isEqualByComparingTo("1000");
        assertThat(Quantity.tryParse("2 cores")).isEmpty();
        assertThat(Quantity.tryParse("")).isEmpty();
    }
}
