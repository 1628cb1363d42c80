package io.lahar.schema;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaCompatibility.SchemaCompatibilityType;
import org.junit.jupiter.api.Test;

/**
 * The contract may grow but never break: every schema must read data written with the last
 * released version (BACKWARD: consumers upgrade first) and the released version must read data
 * written with the current one (FORWARD: a consumer on an older schema still reads newer records).
 * The one exception is a union branch listed in {@link ReadersFirstBranches}: a release without it
 * cannot read it, so it is rolled out readers first and exempt from FORWARD, and from nothing else.
 *
 * <p>To release: copy {@code src/main/avro} to {@code released/<new version>/}.
 */
class SchemaCompatibilityTest {

    @Test
    void everySchemaIsBackwardAndForwardCompatibleWithTheLastRelease() {
        Map<String, Schema> released = AvscFiles.byFullName(AvscFiles.latestReleased());

        assertThat(released).as("released schemas").hasSizeGreaterThanOrEqualTo(16);
        assertThat(problemsAgainst(released))
                .as("incompatibilities with " + AvscFiles.latestReleased().getFileName())
                .isEmpty();
    }

    @Test
    void everySchemaIsCompatibleWithEveryEarlierReleaseToo() {
        // Consumers pinned to any earlier release must keep working (FULL_TRANSITIVE), not only the
        // ones on the last release.
        List<String> problems = new ArrayList<>();
        for (Path version : AvscFiles.releasedVersions()) {
            problemsAgainst(AvscFiles.byFullName(version)).forEach(p -> problems.add(version.getFileName() + ": " + p));
        }

        assertThat(problems).isEmpty();
    }

    private static List<String> problemsAgainst(Map<String, Schema> released) {
        Map<String, Schema> current = AvscFiles.byFullName(AvscFiles.CURRENT);
        List<String> problems = new ArrayList<>();
        released.forEach((name, old) -> {
            Schema now = current.get(name);
            if (now == null) {
                problems.add(name + ": removed (a released schema must stay)");
            } else {
                problems.addAll(
                        incompatibilities(name, now, old, ReadersFirstBranches.withoutBranchesLackedBy(now, old)));
            }
        });
        return problems;
    }

    @Test
    void everyTopicValueSchemaHasBeenReleased() {
        Map<String, Schema> released = AvscFiles.byFullName(AvscFiles.latestReleased());

        assertThat(Topics.all())
                .allSatisfy(t -> assertThat(released)
                        .as(t.name())
                        .containsKey(t.valueSchema().getFullName()));
    }

    @Test
    void addingAnOptionalFieldWithADefaultIsCompatibleBothWays() {
        Schema old = AvscFiles.byFullName(AvscFiles.CURRENT).get("io.lahar.schema.PodEvent");
        Schema grown = withExtraField(old, """
        {"name": "ip", "type": ["null", "string"], "default": null, "doc": "Pod IP."}""");

        assertThat(incompatibilities("PodEvent", grown, old)).isEmpty();
    }

    @Test
    void aRequiredNewFieldBreaksBackwardCompatibility() {
        Schema old = AvscFiles.byFullName(AvscFiles.CURRENT).get("io.lahar.schema.PodEvent");
        Schema grown = withExtraField(old, """
        {"name": "ip", "type": "string", "doc": "Pod IP."}""");

        assertThat(incompatibilities("PodEvent", grown, old))
                .singleElement()
                .asString()
                .startsWith("PodEvent BACKWARD")
                .contains("ip");
    }

    @Test
    void retypingAFieldBreaksCompatibility() {
        Schema old = AvscFiles.byFullName(AvscFiles.CURRENT).get("io.lahar.schema.Tick");
        Schema retyped = new Schema.Parser().parse("""
        {"type": "record", "name": "Tick", "namespace": "io.lahar.schema", "doc": "t",
         "fields": [{"name": "time", "type": "string", "doc": "t"}]}""");

        assertThat(incompatibilities("Tick", retyped, old)).hasSize(2);
    }

    @Test
    void anEnumSymbolAddedLaterIsReadAsTheDefaultByOlderReaders() {
        Schema old = AvscFiles.byFullName(AvscFiles.CURRENT).get("io.lahar.schema.JobCommand");
        String json = old.toString().replace("\"SyncJob\",", "\"SyncJob\",\"SuspendJob\",");
        Schema newer = new Schema.Parser().parse(json);

        assertThat(json).contains("SuspendJob");
        assertThat(incompatibilities("JobCommand", newer, old)).isEmpty();
    }

    /** Every way the pair fails, each direction named. */
    static List<String> incompatibilities(String name, Schema current, Schema released) {
        return incompatibilities(name, current, released, current);
    }

    /**
     * Every way the pair fails: {@code current} must read what {@code released} wrote, and
     * {@code released} what {@code currentWriter} writes ({@code current} less its readers-first
     * branches).
     */
    static List<String> incompatibilities(String name, Schema current, Schema released, Schema currentWriter) {
        List<String> problems = new ArrayList<>();
        check(name + " BACKWARD", current, released, problems);
        check(name + " FORWARD", released, currentWriter, problems);
        return problems;
    }

    @Test
    void everyReadersFirstBranchIsAUnionBranchOfItsSchemaWithAReason() {
        Map<String, Schema> current = AvscFiles.byFullName(AvscFiles.CURRENT);
        assertThat(ReadersFirstBranches.ALL).allSatisfy(b -> {
            assertThat(current).as(b.schema()).containsKey(b.schema());
            assertThat(ReadersFirstBranches.unionBranches(current.get(b.schema())))
                    .as("branches of " + b.schema())
                    .contains(b.branch());
            assertThat(b.reason()).as(b.branch()).isNotBlank();
        });
    }

    @Test
    void aReadersFirstBranchIsExemptFromForwardOnly() {
        Schema now = AvscFiles.byFullName(AvscFiles.CURRENT).get("io.lahar.schema.PodIntent");
        Schema released =
                AvscFiles.byFullName(AvscFiles.releasedVersions().getFirst()).get("io.lahar.schema.PodIntent");
        Schema writer = ReadersFirstBranches.withoutBranchesLackedBy(now, released);

        assertThat(incompatibilities("PodIntent", now, released))
                .as("without the exception, a reader of the release lacks the new branches")
                .isNotEmpty()
                .allSatisfy(p -> assertThat(p).startsWith("PodIntent FORWARD").contains("MISSING_UNION_BRANCH"));
        assertThat(incompatibilities("PodIntent", now, released, writer)).isEmpty();
        assertThat(ReadersFirstBranches.unionBranches(writer))
                .doesNotContain("io.lahar.schema.EnsureNetworkPolicy", "io.lahar.schema.EnsurePersistentVolumeClaim")
                .contains("io.lahar.schema.CreatePod", "io.lahar.schema.DeleteObject");
    }

    @Test
    void aNewBranchNotListedAsReadersFirstStillBreaksForwardCompatibility() {
        Schema now = AvscFiles.byFullName(AvscFiles.CURRENT).get("io.lahar.schema.PodIntent");
        String json = now.toString()
                .replace(
                        "{\"type\":\"record\",\"name\":\"DeleteObject\"",
                        "{\"type\":\"record\",\"name\":\"EnsureDeployment\",\"doc\":\"d\",\"fields\":[]},"
                                + "{\"type\":\"record\",\"name\":\"DeleteObject\"");
        Schema grown = new Schema.Parser().parse(json);

        assertThat(json).contains("EnsureDeployment");
        assertThat(incompatibilities("PodIntent", grown, now, ReadersFirstBranches.withoutBranchesLackedBy(grown, now)))
                .singleElement()
                .asString()
                .startsWith("PodIntent FORWARD")
                .contains("MISSING_UNION_BRANCH");
    }

    private static void check(String label, Schema reader, Schema writer, List<String> problems) {
        var result = SchemaCompatibility.checkReaderWriterCompatibility(reader, writer)
                .getResult();
        if (result.getCompatibility() != SchemaCompatibilityType.COMPATIBLE) {
            result.getIncompatibilities()
                    .forEach(i -> problems.add(
                            label + ": " + i.getType() + " at " + i.getLocation() + ": " + i.getMessage()));
        }
    }

    private static Schema withExtraField(Schema record, String fieldJson) {
        String json = record.toString();
        int end = json.lastIndexOf("]}");
        return new Schema.Parser().parse(json.substring(0, end) + "," + fieldJson + json.substring(end));
    }
}
