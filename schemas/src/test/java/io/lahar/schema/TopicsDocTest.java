package io.lahar.schema;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.schema.Topics.TopicSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;

/** Topics.java and docs/topics.md tell the same story, and every value schema is a file. */
class TopicsDocTest {

    private static final Path DOC = AvscFiles.MODULE.resolveSibling("docs").resolve("topics.md");

    @Test
    void everyTopicIsDocumentedWithItsKeySchemaCleanupAndPartitions() throws IOException {
        Map<String, List<String>> rows = topicRows(Files.readString(DOC));

        assertThat(rows.keySet())
                .as("topics in docs/topics.md")
                .containsExactlyElementsOf(
                        Topics.all().stream().map(TopicSpec::name).toList());
        assertThat(Topics.all()).allSatisfy(t -> {
            List<String> row = rows.get(t.name());
            assertThat(row.get(1)).as(t.name() + " key").isEqualTo(t.keyDescription());
            assertThat(row.get(2))
                    .as(t.name() + " value schema")
                    .isEqualTo("`" + t.valueSchema().getName() + "`");
            assertThat(row.get(3)).as(t.name() + " cleanup").isEqualTo(t.cleanupPolicy());
            assertThat(row.get(4)).as(t.name() + " partitions").isEqualTo(Integer.toString(t.partitions()));
            assertThat(row.get(5)).as(t.name() + " writers").isNotBlank();
            assertThat(row.get(6)).as(t.name() + " readers").isNotBlank();
        });
    }

    @Test
    void everyValueSchemaIsAnAvscFileOfTheContract() {
        Map<String, Schema> files = AvscFiles.byFullName(AvscFiles.CURRENT);

        assertThat(Topics.all()).allSatisfy(t -> {
            Schema file = files.get(t.valueSchema().getFullName());
            assertThat(file).as(t.name() + " value schema file").isNotNull();
            // The generated class is built from that file: same schema, field for field (the generator
            // only adds its avro.java.string hints).
            assertThat(file.toString())
                    .isEqualTo(withoutJavaStringHints(t.valueSchema().toString()));
        });
    }

    @Test
    void namesAreUniqueAndTheJobTopicsAreCoPartitioned() {
        List<String> names = Topics.all().stream().map(TopicSpec::name).toList();

        assertThat(names).doesNotHaveDuplicates().allSatisfy(n -> assertThat(n).startsWith("lahar."));
        assertThat(Topics.all().stream().filter(t -> t.keyDescription().matches("namespace/name of the Job([ ,].*)?")))
                .extracting(TopicSpec::name)
                .containsExactly(
                        "lahar.job-commands",
                        "lahar.command-results",
                        "lahar.pod-events",
                        "lahar.job-status",
                        "lahar.job-transitions",
                        "lahar.pod-groups",
                        "lahar.pod-intents",
                        "lahar.scheduler-decisions")
                .allSatisfy(n ->
                        assertThat(Topics.byName(n).orElseThrow().partitions()).isEqualTo(Topics.JOB_PARTITIONS));
        assertThat(Topics.CLOCK.coPartitioned()).isTrue();
        assertThat(Topics.FLOW_COMMANDS.partitions()).isEqualTo(Topics.FLOW_STATUS.partitions());
        // The JobFlow engine's clock is read beside the flow commands, partition p with partition p.
        assertThat(Topics.FLOW_CLOCK.partitions()).isEqualTo(Topics.FLOW_COMMANDS.partitions());
    }

    @Test
    void statusTopicsAreCompactedAndLogsAreNot() {
        assertThat(Topics.all().stream().filter(TopicSpec::compacted).map(TopicSpec::name))
                .containsExactlyInAnyOrder(
                        "lahar.job-status",
                        "lahar.pod-groups",
                        "lahar.workload-pods",
                        "lahar.nodes",
                        "lahar.queues",
                        "lahar.queue-status",
                        "lahar.priority-classes",
                        "lahar.job-templates",
                        "lahar.flow-status",
                        "lahar.cronjob-status");
        assertThat(Topics.JOB_COMMANDS.cleanupPolicy()).isEqualTo("delete");
        assertThat(Topics.JOB_STATUS.cleanupPolicy()).isEqualTo("compact");
        assertThat(Topics.JOB_STATUS.valueSubject()).isEqualTo("lahar.job-status-value");
    }

    @Test
    void keysAndLookups() {
        assertThat(Topics.jobKey("default", "tf-job")).isEqualTo("default/tf-job");
        assertThat(Topics.clockKey(5)).isEqualTo("5");
        assertThat(Topics.byName("lahar.pod-events")).contains(Topics.POD_EVENTS);
        assertThat(Topics.byName("lahar.nope")).isEmpty();
    }

    private static String withoutJavaStringHints(String json) {
        return json.replace("{\"type\":\"string\",\"avro.java.string\":\"String\"}", "\"string\"")
                .replace(",\"avro.java.string\":\"String\"", "");
    }

    /** The rows of the topics table: topic name (without backticks) to its cells. */
    private static Map<String, List<String>> topicRows(String markdown) {
        Map<String, List<String>> rows = new LinkedHashMap<>();
        for (String line : markdown.lines().toList()) {
            if (!line.startsWith("| `lahar.")) {
                continue;
            }
            List<String> cells = Arrays.stream(
                            line.substring(1, line.lastIndexOf('|')).split("\\|"))
                    .map(String::strip)
                    .toList();
            assertThat(cells).as(line).hasSize(7);
            rows.put(cells.get(0).replace("`", ""), cells);
        }
        return rows;
    }
}
