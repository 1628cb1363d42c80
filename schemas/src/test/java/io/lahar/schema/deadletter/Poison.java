package io.lahar.schema.deadletter;

import io.lahar.schema.Topics;
import io.lahar.schema.serde.RegistrySerdes;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Serializer;
import org.junit.jupiter.params.provider.Arguments;

/**
 * The kinds of poison every service's table test puts on every topic it reads (this module's test
 * jar), the record each kind makes of a valid one, and the words its dead letter's reason must hold.
 */
public enum Poison {
    UNDECODABLE_BYTES,
    UNKNOWN_SCHEMA_ID,
    WRONG_RECORD_TYPE,
    KEY_NOT_THE_IDENTITY,
    EMPTY_KEY,
    NO_KEY,
    TOMBSTONE;

    /** A schema id no registry of the tests has handed out. */
    public static final int UNKNOWN_ID = 999_999;

    /**
     * One input topic of a service: a valid record of it under its own key, and a key that is not the
     * record's identity.
     */
    public record Input(Topics.TopicSpec topic, String key, SpecificRecord valid, String otherKey) {
        @Override
        public String toString() {
            return topic.name();
        }
    }

    /** Every kind on every input, tombstones only on the topics that have none. */
    public static Stream<Arguments> cases(List<Input> inputs) {
        return inputs.stream()
                .flatMap(input -> Arrays.stream(values())
                        .filter(p -> p != TOMBSTONE || !input.topic().compacted())
                        .map(p -> Arguments.of(input, p)));
    }

    public String key(Input input) {
        return switch (this) {
            case KEY_NOT_THE_IDENTITY -> input.otherKey();
            case EMPTY_KEY -> "";
            case NO_KEY -> null;
            default -> input.key();
        };
    }

    /**
     * @param otherType a valid record of another topic's type
     * @param text      what the bytes that are no record carry (a reader may look for a marker in them)
     */
    public byte[] value(Input input, RegistrySerdes serdes, SpecificRecord otherType, String text) {
        byte[] body = text.getBytes(StandardCharsets.UTF_8);
        return switch (this) {
            case UNDECODABLE_BYTES -> ("not avro " + text).getBytes(StandardCharsets.UTF_8);
            case UNKNOWN_SCHEMA_ID ->
                ByteBuffer.allocate(5 + body.length)
                        .put((byte) 0)
                        .putInt(UNKNOWN_ID)
                        .put(body)
                        .array();
            case WRONG_RECORD_TYPE ->
                encode(
                        serdes,
                        Topics.byName(otherTopic(otherType)).orElseThrow().name(),
                        otherType);
            case TOMBSTONE -> null;
            default -> encode(serdes, input.topic().name(), input.valid());
        };
    }

    /** What the dead letter's reason says of this kind. */
    public String reason(Input input) {
        return switch (this) {
            case UNDECODABLE_BYTES ->
                "not a registry-encoded record on " + input.topic().name();
            case UNKNOWN_SCHEMA_ID ->
                "schema id " + UNKNOWN_ID + " on " + input.topic().name()
                        + " is not in the schema registry, which answered 404";
            case WRONG_RECORD_TYPE ->
                "records, not of io.lahar.schema." + input.valid().getSchema().getName() + " records";
            case KEY_NOT_THE_IDENTITY ->
                input.topic() == Topics.CLOCK
                                || input.topic() == Topics.FLOW_CLOCK
                                || input.topic() == Topics.CRON_CLOCK
                        ? "the record key \"" + input.otherKey() + "\" is not the number of its partition"
                        : "\"" + input.otherKey() + "\" does not match";
            case EMPTY_KEY -> "an empty key";
            case NO_KEY -> "no key";
            case TOMBSTONE -> "no value";
        };
    }

    /** The topic a record of this type belongs on: a record of another type is one misrouted from there. */
    private static String otherTopic(SpecificRecord record) {
        return Topics.all().stream()
                .filter(t ->
                        t.valueSchema().getFullName().equals(record.getSchema().getFullName()))
                .findFirst()
                .orElseThrow()
                .name();
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    public static byte[] encode(RegistrySerdes serdes, String topic, SpecificRecord record) {
        return ((Serializer) serdes.value(record.getClass()).serializer()).serialize(topic, record);
    }
}
