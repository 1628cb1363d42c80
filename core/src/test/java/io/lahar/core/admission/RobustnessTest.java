package io.lahar.core.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lahar.core.api.Manifest;
import io.lahar.core.api.ManifestException;
import io.lahar.core.api.Manifests;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Bad input never crashes: randomly damaged manifests (fields removed, nulled, retyped, list
 * items repeated) either fail to parse with a ManifestException or get an admission answer.
 * The random source has a fixed seed, so a failure reproduces.
 */
class RobustnessTest {

    static final JsonNodeFactory F = JsonNodeFactory.instance;
    static final JsonNode[] REPLACEMENTS = {
        F.nullNode(),
        F.textNode(""),
        F.textNode("x"),
        F.numberNode(-1),
        F.numberNode(0),
        F.booleanNode(true),
        F.arrayNode(),
        F.objectNode(),
        F.arrayNode().addNull(),
        F.textNode("*"),
        F.numberNode(70000)
    };

    @Test
    void damagedManifestsNeverCrashAdmission() throws IOException {
        List<JsonNode> seeds = new ArrayList<>();
        try (Stream<Path> files = Files.list(Path.of("..", "examples"))) {
            for (Path p :
                    files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
                seeds.addAll(Manifests.readTrees(Files.readString(p)));
            }
        }
        Random random = new Random(42);
        int admitted = 0;
        for (int i = 0; i < 1500; i++) {
            JsonNode doc = seeds.get(random.nextInt(seeds.size())).deepCopy();
            int damage = 1 + random.nextInt(3);
            for (int d = 0; d < damage; d++) {
                doc = damage(doc, random);
            }
            Manifest m;
            try {
                m = Manifests.fromTree(doc);
            } catch (ManifestException e) {
                continue;
            }
            try {
                AdmissionContext ctx = AdmissionContext.freshInstall();
                AdmissionResult<Manifest> r = Admission.create(m, ctx);
                if (r.accepted()) {
                    assertThat(Manifests.toJson(Manifests.read(Manifests.toYaml(r.object()))))
                            .isEqualTo(Manifests.toJson(r.object()));
                    admitted++;
                } else {
                    assertThat(r.violations())
                            .allSatisfy(v -> assertThat(v.path()).isNotBlank());
                }
                Admission.update(m, m, ctx);
                Admission.delete(m, ctx.with(m));
            } catch (RuntimeException e) {
                fail("admission crashed on " + Manifests.toJson(doc), e);
            }
        }
        assertThat(admitted).isPositive();
    }

    /** Replaces, removes or repeats one random node of the tree. */
    static JsonNode damage(JsonNode root, Random random) {
        List<JsonNode> containers = new ArrayList<>();
        collect(root, containers);
        JsonNode target = containers.get(random.nextInt(containers.size()));
        if (target instanceof ObjectNode o && !o.isEmpty()) {
            List<String> names = new ArrayList<>();
            o.fieldNames().forEachRemaining(names::add);
            String name = names.get(random.nextInt(names.size()));
            if (random.nextInt(4) == 0 && !name.equals("kind") && !name.equals("apiVersion")) {
                o.remove(name);
            } else if (!name.equals("kind") && !name.equals("apiVersion")) {
                o.set(name, REPLACEMENTS[random.nextInt(REPLACEMENTS.length)].deepCopy());
            }
        } else if (target instanceof ArrayNode a && !a.isEmpty()) {
            int k = random.nextInt(a.size());
            switch (random.nextInt(3)) {
                case 0 -> a.add(a.get(k).deepCopy());
                case 1 -> a.remove(k);
                default -> a.set(k, REPLACEMENTS[random.nextInt(REPLACEMENTS.length)].deepCopy());
            }
        }
        return root;
    }

    static void collect(JsonNode n, List<JsonNode> out) {
        if (n.isContainerNode()) {
            out.add(n);
            n.forEach(c -> collect(c, out));
        }
    }
}
