package io.lahar.schema.codec;

import java.io.IOException;
import org.apache.avro.io.Encoder;

/**
 * The {@code ["null", T]} unions of the records the codecs write straight (job statuses,
 * transitions), as Avro's writer writes them: the branch index, then the value when there is one.
 */
final class NullableWrites {

    private NullableWrites() {}

    static void string(String value, Encoder out) throws IOException {
        if (value == null) {
            out.writeIndex(0);
        } else {
            out.writeIndex(1);
            out.writeString(value);
        }
    }

    static void number(Long value, Encoder out) throws IOException {
        if (value == null) {
            out.writeIndex(0);
        } else {
            out.writeIndex(1);
            out.writeLong(value);
        }
    }
}
