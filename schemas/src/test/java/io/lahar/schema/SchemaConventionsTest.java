package io.lahar.schema;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;

/** Every schema parses, documents every record, enum and field it defines, and keeps the house rules. */
class SchemaConventionsTest {

    @Test
    void everyAvscFileParses() {
        Map<String, Schema> byFile = AvscFiles.parse(AvscFiles.CURRENT);

        assertThat(byFile).hasSize(AvscFiles.files(AvscFiles.CURRENT).size());
        assertThat(byFile.keySet()).contains("job-command.avsc", "dead-letter.avsc", "common/task-state.avsc");
        assertThat(byFile.values()).allSatisfy(s -> assertThat(s.getNamespace()).isEqualTo("io.lahar.schema"));
    }

    @Test
    void everyRecordEnumAndFieldHasADoc() {
        List<String> undocumented = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        AvscFiles.parse(AvscFiles.CURRENT).forEach((file, schema) -> undocumented(file, schema, seen, undocumented));

        assertThat(undocumented).as("types and fields without a doc").isEmpty();
        // The walk must have reached the nested types, or the check above proves nothing.
        assertThat(seen)
                .contains(
                        "io.lahar.schema.JobActionCommand",
                        "io.lahar.schema.Toleration",
                        "io.lahar.schema.JobRunningHistory",
                        "io.lahar.schema.FlowCondition",
                        "io.lahar.schema.JobAction");
    }

    @Test
    void theWalkFindsAMissingDocDeepInAUnion() {
        Schema schema = new Schema.Parser().parse("""
        {"type": "record", "name": "Outer", "doc": "outer", "fields": [
          {"name": "choice", "doc": "a union", "type": ["null", {"type": "array", "items":
            {"type": "record", "name": "Inner", "doc": "inner", "fields": [
              {"name": "x", "type": "int"}]}}]}]}""");
        List<String> undocumented = new ArrayList<>();

        undocumented("test.avsc", schema, new HashSet<>(), undocumented);

        assertThat(undocumented).containsExactly("test.avsc: Inner.x");
    }

    @Test
    void everyEnumHasADefaultSymbolForReadersOfNewerData() {
        List<Schema> named = new ArrayList<>();
        AvscFiles.parse(AvscFiles.CURRENT).values().forEach(s -> collectNamed(s, new HashSet<>(), named));
        List<Schema> enums =
                named.stream().filter(s -> s.getType() == Schema.Type.ENUM).toList();

        assertThat(enums).extracting(Schema::getName).contains("JobAction", "FlowKind", "QueueState");
        assertThat(enums)
                .allSatisfy(e -> assertThat(e.getEnumDefault())
                        .as(e.getFullName() + " default")
                        .isNotNull());
    }

    @Test
    void everyFieldNamedTimeIsAnEventTimestampInMillis() {
        List<Schema> records = new ArrayList<>();
        AvscFiles.parse(AvscFiles.CURRENT).values().forEach(s -> collectNamed(s, new HashSet<>(), records));
        List<Schema.Field> timeFields = records.stream()
                .filter(r -> r.getType() == Schema.Type.RECORD)
                .flatMap(r -> r.getFields().stream())
                .filter(f -> f.name().equals("time")
                        || f.name().endsWith("Time")
                        || f.name().endsWith("Timestamp"))
                .toList();

        assertThat(timeFields).hasSizeGreaterThan(15).allSatisfy(f -> {
            Schema type = f.schema().isNullable()
                    ? f.schema().getTypes().stream()
                            .filter(t -> t.getType() != Schema.Type.NULL)
                            .findFirst()
                            .orElseThrow()
                    : f.schema();
            assertThat(type.getLogicalType()).as(f.name()).isEqualTo(LogicalTypes.timestampMillis());
        });
    }

    @Test
    void noRecordInsideAnArrayHasANullableTimestamp() {
        // Avro decodes arrays as GenericData.Array, whose equals() compares elements with the
        // conversion-less GenericData.get(): a nullable Instant there throws "Unknown datum type"
        // from equals(). Records in arrays therefore carry required timestamps (0 for "not yet").
        List<String> offenders = new ArrayList<>();
        List<Schema> named = new ArrayList<>();
        AvscFiles.parse(AvscFiles.CURRENT).values().forEach(s -> collectNamed(s, new HashSet<>(), named));
        named.stream()
                .filter(r -> r.getType() == Schema.Type.RECORD)
                .flatMap(r -> r.getFields().stream().map(f -> f.schema()))
                .forEach(t -> arrayElements(t, offenders));

        assertThat(offenders).isEmpty();
    }

    private static void arrayElements(Schema type, List<String> offenders) {
        switch (type.getType()) {
            case ARRAY -> {
                Schema element = type.getElementType();
                if (element.getType() == Schema.Type.RECORD) {
                    element.getFields().stream()
                            .filter(f -> f.schema().isUnion()
                                    && f.schema().getTypes().stream().anyMatch(t -> t.getLogicalType() != null))
                            .forEach(f -> offenders.add(element.getName() + "." + f.name()));
                }
            }
            case UNION -> type.getTypes().forEach(t -> arrayElements(t, offenders));
            case MAP -> arrayElements(type.getValueType(), offenders);
            default -> {}
        }
    }

    /** Appends "file: Type.field" for every type or field without a non-blank doc. */
    static void undocumented(String file, Schema schema, Set<String> seen, List<String> out) {
        switch (schema.getType()) {
            case RECORD -> {
                if (!seen.add(schema.getFullName())) {
                    return;
                }
                if (isBlank(schema.getDoc())) {
                    out.add(file + ": " + schema.getName());
                }
                for (Schema.Field field : schema.getFields()) {
                    if (isBlank(field.doc())) {
                        out.add(file + ": " + schema.getName() + "." + field.name());
                    }
                    undocumented(file, field.schema(), seen, out);
                }
            }
            case ENUM, FIXED -> {
                if (seen.add(schema.getFullName()) && isBlank(schema.getDoc())) {
                    out.add(file + ": " + schema.getName());
                }
            }
            case UNION -> schema.getTypes().forEach(t -> undocumented(file, t, seen, out));
            case ARRAY -> undocumented(file, schema.getElementType(), seen, out);
            case MAP -> undocumented(file, schema.getValueType(), seen, out);
            default -> {}
        }
    }

    /** Collects every named type (record, enum, fixed) reachable from the schema. */
    static void collectNamed(Schema schema, Set<String> seen, List<Schema> out) {
        switch (schema.getType()) {
            case RECORD -> {
                if (seen.add(schema.getFullName())) {
                    out.add(schema);
                    schema.getFields().forEach(f -> collectNamed(f.schema(), seen, out));
                }
            }
            case ENUM, FIXED -> {
                if (seen.add(schema.getFullName())) {
                    out.add(schema);
                }
            }
            case UNION -> schema.getTypes().forEach(t -> collectNamed(t, seen, out));
            case ARRAY -> collectNamed(schema.getElementType(), seen, out);
            case MAP -> collectNamed(schema.getValueType(), seen, out);
            default -> {}
        }
    }

    private static boolean isBlank(String doc) {
        return doc == null || doc.isBlank();
    }
}
