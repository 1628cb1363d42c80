package io.lahar.streams.flow;

import io.lahar.schema.CommandResult;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * What the JobFlow and CronJob engines do with the records they read as bytes: their key as a
 * string and their value decoded; a record without a key, a tombstone or a value that decodes to
 * nothing is bad input, thrown as such for the engine's {@code GuardedProcessor} to dead-letter.
 */
public final class EngineRecords {

    private EngineRecords() {}

    public static String keyOf(Object key) {
        String text = switch (key) {
            case null -> null;
            case String s -> s;
            case byte[] b -> new String(b, StandardCharsets.UTF_8);
            default -> key.toString();
        };
        if (text == null || text.isEmpty()) {
            throw new IllegalArgumentException("key: the record has " + (text == null ? "no" : "an empty")
                    + " key; the engine's inputs are keyed namespace/name");
        }
        return text;
    }

    public static byte[] required(String topic, byte[] value) {
        if (value == null) {
            throw new IllegalArgumentException(
                    "value: the record has no value; a " + topic + " record here cannot be a tombstone");
        }
        return value;
    }

    /** Job admission's reasons for refusing a job the engine asked for, each as {@code path: message}. */
    public static List<String> reasons(CommandResult result) {
        return result.getViolations().stream()
                .map(v -> v.getPath().isEmpty() ? v.getMessage() : v.getPath() + ": " + v.getMessage())
                .toList();
    }

    public static <T> T decode(Deserializer<T> deserializer, String topic, byte[] value) {
        T decoded = deserializer.deserialize(topic, required(topic, value));
        if (decoded == null) {
            throw new IllegalArgumentException("value: decoded to nothing");
        }
        return decoded;
    }
}
