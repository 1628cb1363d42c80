package io.lahar.streams.job;

import io.lahar.core.admission.Violation;
import org.apache.kafka.common.serialization.Deserializer;

/** Decoding of input values, with errors that say what was wrong. */
final class Decoding {

    private Decoding() {}

    static <T> T decode(Deserializer<T> deserializer, String topic, byte[] value) {
        if (value == null) {
            throw new IllegalArgumentException(
                    "value: the record has no value; a " + topic + " record cannot be a tombstone");
        }
        T decoded = deserializer.deserialize(topic, value);
        if (decoded == null) {
            throw new IllegalArgumentException("value: decoded to nothing");
        }
        return decoded;
    }

    /** A codec's "path: message" error as a violation. */
    static Violation violation(IllegalArgumentException e) {
        String message = e.getMessage() == null ? e.toString() : e.getMessage();
        int colon = message.indexOf(": ");
        return colon < 0
                ? new Violation("", message)
                : new Violation(message.substring(0, colon), message.substring(colon + 2));
    }
}
