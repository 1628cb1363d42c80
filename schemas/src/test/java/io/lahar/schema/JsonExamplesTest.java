package io.lahar.schema;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.io.JsonEncoder;
import org.apache.avro.specific.SpecificDatumReader;
import org.junit.jupiter.api.Test;

/**
 * The JSON examples of docs/topics.md are records of the contract as Avro's JSON encoding writes
 * them (the form a producer in another language must give its Avro library, unions named by
 * branch): each one decodes with the schema of its .avsc file, Avro writes it back the same, and
 * every record type of every topic shows up in one of them.
 */
class JsonExamplesTest {

    private static final Path DOC = AvscFiles.MODULE.resolveSibling("docs").resolve("topics.md");
    /** A heading naming a value schema, e.g. "### `JobCommand`: SubmitJob", then its json block. */
    private static final Pattern EXAMPLE = Pattern.compile(
            "^### `(\\w+)`[^\\n]*\\n(?:(?!### )[^\\n]*\\n)*?```json\\n(.*?)\\n```", Pattern.MULTILINE | Pattern.DOTALL);

    private static final ObjectMapper JSON = new ObjectMapper();

    record Example(String type, String json) {}

    @Test
    void everyExampleIsWhatAvrosJsonEncodingWritesForItsSchema() throws IOException {
        Map<String, Schema> files = AvscFiles.byFullName(AvscFiles.CURRENT);
        List<Example> examples = examples();

        assertThat(examples).isNotEmpty();
        for (Example example : examples) {
            Schema schema = files.get("io.lahar.schema." + example.type());
            assertThat(schema).as("the .avsc of " + example.type()).isNotNull();
            Object datum = decode(schema, example);

            ByteArrayOutputStream out = new ByteArrayOutputStream();
            JsonEncoder encoder = EncoderFactory.get().jsonEncoder(schema, out);
            new GenericDatumWriter<>(schema).write(datum, encoder);
            encoder.flush();
            assertThat(JSON.readTree(out.toByteArray()))
                    .as(example.type() + " written back by Avro")
                    .isEqualTo(JSON.readTree(example.json()));
            // The generated class reads it too (its timestamps as Instant).
            Schema generated = Topics.all().stream()
                    .map(Topics.TopicSpec::valueSchema)
                    .filter(s -> s.getFullName().equals(schema.getFullName()))
                    .findFirst()
                    .orElseThrow();
            assertThat(new SpecificDatumReader<>(generated)
                            .read(null, DecoderFactory.get().jsonDecoder(generated, example.json())))
                    .isNotNull();
        }
    }

    @Test
    void everyRecordTypeOfEveryTopicIsInAnExample() throws IOException {
        Map<String, Schema> files = AvscFiles.byFullName(AvscFiles.CURRENT);
        Set<String> shown = new TreeSet<>();
        for (Example example : examples()) {
            collectRecordTypes(decode(files.get("io.lahar.schema." + example.type()), example), shown);
        }
        Set<String> all = new TreeSet<>();
        Topics.all().forEach(t -> recordTypes(t.valueSchema(), all));

        assertThat(shown).as("record types with an example in docs/topics.md").containsAll(all);
    }

    @Test
    void aUnionOfRecordsIsWrittenWithItsBranchNamed() throws IOException {
        Example submit = examples().stream()
                .filter(e -> e.type().equals("JobCommand"))
                .findFirst()
                .orElseThrow();

        assertThat(JSON.readTree(submit.json()).path("command").fieldNames().next())
                .isEqualTo("io.lahar.schema.SubmitJob");
    }

    private static Object decode(Schema schema, Example example) throws IOException {
        try {
            return new GenericDatumReader<>(schema)
                    .read(null, DecoderFactory.get().jsonDecoder(schema, example.json()));
        } catch (IOException | RuntimeException e) {
            throw new AssertionError(
                    "the " + example.type() + " example does not decode: " + e.getMessage() + "\n" + example.json(), e);
        }
    }

    static List<Example> examples() throws IOException {
        String markdown = Files.readString(DOC);
        List<Example> examples = new ArrayList<>();
        Matcher m = EXAMPLE.matcher(markdown);
        while (m.find()) {
            examples.add(new Example(m.group(1), m.group(2)));
        }
        return examples;
    }

    /** The full names of the records in a decoded datum, at any depth. */
    private static void collectRecordTypes(Object datum, Set<String> names) {
        if (datum instanceof GenericRecord record) {
            names.add(record.getSchema().getFullName());
            record.getSchema().getFields().forEach(f -> collectRecordTypes(record.get(f.pos()), names));
        } else if (datum instanceof Collection<?> items) {
            items.forEach(i -> collectRecordTypes(i, names));
        } else if (datum instanceof Map<?, ?> map) {
            map.values().forEach(v -> collectRecordTypes(v, names));
        }
    }

    /** The full names of the records a schema can hold, at any depth. */
    private static void recordTypes(Schema schema, Set<String> names) {
        switch (schema.getType()) {
            case RECORD -> {
                if (names.add(schema.getFullName())) {
                    schema.getFields().forEach(f -> recordTypes(f.schema(), names));
                }
            }
            case ARRAY -> recordTypes(schema.getElementType(), names);
            case MAP -> recordTypes(schema.getValueType(), names);
            case UNION -> schema.getTypes().forEach(t -> recordTypes(t, names));
            default -> {}
        }
    }
}
