package io.lahar.core.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * YAML read as YAML: anchors and aliases expanded (with the limits that stop a "billion laughs"),
 * merge keys merged, and unknown fields reported as the Kubernetes API server's warnings.
 */
class YamlAsYamlTest {

    static final String JOB = """
            apiVersion: batch.volcano.sh/v1alpha1
            kind: Job
            metadata:
              name: anchors
            spec:
              tasks:
              - name: ps
                replicas: 1
                template: &pod
                  spec:
                    containers:
                    - name: c
                      image: busybox
                      args: &b ["--port", "2222"]
              - name: worker
                replicas: 2
                template: *pod
              - name: eval
                replicas: 1
                template:
                  spec:
                    containers:
                    - name: c
                      image: busybox
                      args: *b
            """;

    @Test
    void anAliasIsTheNodeItsAnchorNames() {
        Job job = Manifests.read(JOB, Job.class);
        assertThat(job.spec().tasks().get(1).template())
                .isEqualTo(job.spec().tasks().get(0).template());
        assertThat(job.spec()
                        .tasks()
                        .get(2)
                        .pod()
                        .containers()
                        .getFirst()
                        .node()
                        .path("args")
                        .toString())
                .isEqualTo("[\"--port\",\"2222\"]");
    }

    @Test
    void scalarAliasesAndAnchorsOnEveryKindOfNode() {
        JsonNode doc = Manifests.readTrees("""
                name: &n hello
                port: &p 8080
                list: &l [1, 2]
                again: [*n, *p, *l]
                quoted: "*n"
                """).getFirst();
        assertThat(doc.path("again").toString()).isEqualTo("[\"hello\",8080,[1,2]]");
        assertThat(doc.path("quoted").asText()).isEqualTo("*n");
    }

    @Test
    void mergeKeysGiveTheKeysAMappingLacks() {
        JsonNode doc = Manifests.readTrees("""
                defaults: &d {image: busybox, imagePullPolicy: IfNotPresent}
                more: &m {image: other, workingDir: /w}
                one:
                  <<: *d
                  name: c
                  image: mine
                two:
                  <<: [*m, *d]
                """).getFirst();
        assertThat(doc.path("one").toString())
                .isEqualTo("{\"name\":\"c\",\"image\":\"mine\",\"imagePullPolicy\":\"IfNotPresent\"}");
        // The first mapping of the list wins over the later ones.
        assertThat(doc.path("two").path("image").asText()).isEqualTo("other");
        assertThat(doc.path("two").path("imagePullPolicy").asText()).isEqualTo("IfNotPresent");
        assertThatThrownBy(() -> Manifests.readTrees("a:\n  <<: 3\n"))
                .isInstanceOf(ManifestException.class)
                .hasMessageContaining("<<: a merge key takes a mapping or a list of mappings, found number");
    }

    @Test
    void anchorsBelongToTheirDocument() {
        List<JsonNode> docs = Manifests.readTrees("a: &x 1\nb: *x\n---\na: &x 2\nb: *x\n");
        assertThat(docs).extracting(d -> d.path("b").asInt()).containsExactly(1, 2);
        assertThatThrownBy(() -> Manifests.readTrees("a: &x 1\n---\nb: *x\n"))
                .isInstanceOf(ManifestException.class)
                .hasMessageContaining("alias *x names no anchor before it (&x)");
    }

    @Test
    void aRecursiveAliasIsRefused() {
        assertThatThrownBy(() -> Manifests.readTrees("a: &x\n  b: *x\n"))
                .isInstanceOf(ManifestException.class)
                .hasMessageContaining("alias *x is inside the node it names");
    }

    @Test
    void billionLaughsIsRefusedByTheAliasCount() {
        // The classic: nine levels of nine aliases each, 9^9 strings once expanded.
        StringBuilder yaml =
                new StringBuilder("a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n");
        char previous = 'a';
        for (char c = 'b'; c <= 'i'; c++) {
            yaml.append(c).append(": &").append(c).append(" [");
            for (int k = 0; k < 9; k++) {
                yaml.append(k == 0 ? "" : ",").append('*').append(previous);
            }
            yaml.append("]\n");
            previous = c;
        }
        assertThatThrownBy(() -> Manifests.readTrees(yaml.toString()))
                .isInstanceOf(ManifestException.class)
                .hasMessageContaining("refused as a possible \"billion laughs\"");
    }

    @Test
    void moreThanFiftyAliasesOfCollectionsAreRefused() {
        String fifty = "a: &a [1]\nb: [" + "*a,".repeat(49) + "*a]\n";
        assertThat(Manifests.readTrees(fifty).getFirst().path("b")).hasSize(50);
        assertThatThrownBy(() -> Manifests.readTrees(fifty.replace("[*a,", "[*a,*a,")))
                .isInstanceOf(ManifestException.class)
                .hasMessageContaining("more than 50 aliases of mappings or sequences in one document"
                        + " (SnakeYAML's maxAliasesForCollections): refused as a possible \"billion laughs\"");
        // Aliases of scalars cost no more than the scalar: not counted.
        assertThat(Manifests.readTrees("s: &s x\nb: [" + "*s,".repeat(199) + "*s]\n")
                        .getFirst()
                        .path("b"))
                .hasSize(200);
    }

    @Test
    void aSlowerDoublingIsRefusedByTheExpandedSize() {
        // Two aliases a level, 24 levels: within the alias count, 2^24 nodes once expanded.
        StringBuilder yaml = new StringBuilder("l0: &l0 [x, x]\n");
        for (int i = 1; i <= 24; i++) {
            yaml.append("l")
                    .append(i)
                    .append(": &l")
                    .append(i)
                    .append(" [*l")
                    .append(i - 1)
                    .append(", *l")
                    .append(i - 1)
                    .append("]\n");
        }
        assertThatThrownBy(() -> Manifests.readTrees(yaml.toString()))
                .isInstanceOf(ManifestException.class)
                .hasMessageContaining("aliases expand the document by more than 100000 nodes: refused as a possible"
                        + " \"billion laughs\"");
    }

    @Test
    void aDocumentOverThreeMebibytesIsRefused() {
        String big = "a: \"" + "x".repeat(Manifests.MAX_DOCUMENT_CODE_POINTS) + "\"\n";
        assertThatThrownBy(() -> Manifests.readTrees(big))
                .isInstanceOf(ManifestException.class)
                .hasMessageContaining("3145728");
        assertThatThrownBy(
                        () -> Manifests.readTrees("{\"a\":\"" + "x".repeat(Manifests.MAX_DOCUMENT_CODE_POINTS) + "\"}"))
                .isInstanceOf(ManifestException.class)
                .hasMessageContaining("over the limit of 3145728");
    }

    static List<Path> examples() throws IOException {
        List<Path> out = new ArrayList<>();
        for (Path dir : List.of(Path.of("..", "examples"), Path.of("..", "examples", "demo"))) {
            try (var files = Files.list(dir)) {
                out.addAll(files.filter(p -> p.toString().endsWith(".yaml"))
                        .sorted()
                        .toList());
            }
        }
        return out;
    }

    /** Expansion sits under Jackson's parser: without aliases, every scalar is typed exactly as before. */
    @ParameterizedTest
    @MethodSource("examples")
    void aDocumentWithoutAliasesReadsAsPlainJacksonReadsIt(Path file) throws IOException {
        String text = Files.readString(file);
        List<JsonNode> plain = new ArrayList<>();
        try (MappingIterator<JsonNode> it =
                new YAMLMapper().readerFor(JsonNode.class).readValues(text)) {
            while (it.hasNextValue()) {
                plain.add(it.nextValue());
            }
        }
        assertThat(Manifests.readTrees(text))
                .isEqualTo(plain.stream()
                        .filter(d -> d != null && !d.isNull() && !d.isMissingNode())
                        .flatMap(d -> d.path("kind").asText().equals("List")
                                ? toList(d.path("items")).stream()
                                : List.of(d).stream())
                        .toList());
        // And no example has a field Lahar would drop.
        assertThat(Manifests.readAllWithWarnings(text))
                .allSatisfy(r -> assertThat(r.warnings()).isEmpty());
    }

    @Test
    void scalarsKeepTheirTypesThroughAliases() throws IOException {
        String scalars = "[yes, no, on, 0x1F, 010, 1_000, 1e3, ~, null, Null, '12', 12, 1.5, true, False]";
        JsonNode plain = new YAMLMapper().readTree("a: " + scalars);
        assertThat(Manifests.readTrees("a: &s " + scalars + "\nb: *s\n")
                        .getFirst()
                        .path("b"))
                .isEqualTo(plain.path("a"));
    }

    private static List<JsonNode> toList(JsonNode array) {
        List<JsonNode> out = new ArrayList<>();
        array.forEach(out::add);
        return out;
    }

    @Test
    void unknownFieldsAreDroppedAndReportedWithTheirPaths() {
        Manifests.Reading r = Manifests.readWithWarnings("""
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata:
                  name: j
                  colour: blue
                specs: {}
                spec:
                  minAvailabel: 1
                  extra: {a: [1]}
                  tasks:
                  - name: w
                    replica: 3
                    template:
                      spec:
                        notAPodField: kept for Kubernetes to judge
                    policies:
                    - event: PodFailed
                      action: RestartJob
                      when: later
                """);
        assertThat(r.warnings())
                .containsExactlyInAnyOrder(
                        "unknown field \"metadata.colour\"",
                        "unknown field \"specs\"",
                        "unknown field \"spec.minAvailabel\"",
                        "unknown field \"spec.extra\"",
                        "unknown field \"spec.tasks[0].replica\"",
                        "unknown field \"spec.tasks[0].policies[0].when\"");
        Job job = (Job) r.manifest();
        assertThat(job.spec().tasks().getFirst().replicas()).isNull();
        assertThat(job.spec()
                        .tasks()
                        .getFirst()
                        .template()
                        .path("spec")
                        .path("notAPodField")
                        .asText())
                .isEqualTo("kept for Kubernetes to judge");
        assertThat(Manifests.readWithWarnings(Manifests.toJson(job)).warnings()).isEmpty();
    }
}
