package io.lahar.streams.job;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.core.io.NumberOutput;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A JSON writer into a byte buffer of its own, for {@link JobEntryJson}: the bytes Jackson's UTF-8
 * generator writes (no spaces; strings in UTF-8, escaped as Jackson escapes them), without its
 * per-call bookkeeping. Why: an entry is many small fields, and the generator's work per field name and
 * value was most of an entry's encoding on the stream thread. Field names come pre-encoded
 * ({@link #name}); separators follow from what was written last, so the caller only says what
 * comes next. Not thread-safe; reused across entries ({@link #reset}).
 */
final class JsonBytes {

    private byte[] buf = new byte[8 * 1024];
    private int len;
    /** A value was just written in the current object or array: the next field or element needs a comma. */
    private boolean comma;

    /** {@code "name":} in UTF-8, made once per field name. */
    static byte[] name(String name) {
        byte[] quoted = JsonStringEncoder.getInstance().quoteAsUTF8(name);
        byte[] out = new byte[quoted.length + 3];
        out[0] = '"';
        System.arraycopy(quoted, 0, out, 1, quoted.length);
        out[out.length - 2] = '"';
        out[out.length - 1] = ':';
        return out;
    }

    void reset() {
        len = 0;
        comma = false;
    }

    int size() {
        return len;
    }

    byte[] toByteArray() {
        return Arrays.copyOf(buf, len);
    }

    void startObject() {
        open('{');
    }

    void endObject() {
        close('}');
    }

    void startArray() {
        open('[');
    }

    void endArray() {
        close(']');
    }

    private void open(char bracket) {
        separate();
        put(bracket);
        comma = false;
    }

    private void close(char bracket) {
        put(bracket);
        comma = true;
    }

    /** A field name made by {@link #name}; its value must follow. */
    void field(byte[] name) {
        separate();
        put(name);
        comma = false;
    }

    /** A field name not known in advance (a map key); its value must follow. */
    void field(String name) {
        separate();
        quoted(name);
        put(':');
        comma = false;
    }

    void value(String s) {
        separate();
        quoted(s);
        comma = true;
    }

    void value(long n) {
        separate();
        ensure(20);
        len = NumberOutput.outputLong(n, buf, len);
        comma = true;
    }

    void value(int n) {
        separate();
        ensure(11);
        len = NumberOutput.outputInt(n, buf, len);
        comma = true;
    }

    void value(boolean b) {
        separate();
        put(b ? TRUE : FALSE);
        comma = true;
    }

    void nullValue() {
        separate();
        put(NULL);
        comma = true;
    }

    /** A value already written as JSON (UTF-8). */
    void rawValue(byte[] json) {
        separate();
        put(json);
        comma = true;
    }

    private void separate() {
        if (comma) {
            put(',');
        }
    }

    /** A string in quotes: ASCII that needs no escape copied as it is, anything else as Jackson escapes it. */
    private void quoted(String s) {
        int n = s.length();
        ensure(n + 2);
        int at = len;
        buf[at++] = '"';
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c >= 0x80 || c == '"' || c == '\\') {
                len++;
                put(JsonStringEncoder.getInstance().quoteAsUTF8(s));
                put('"');
                return;
            }
            buf[at++] = (byte) c;
        }
        buf[at++] = '"';
        len = at;
    }

    private void put(int b) {
        ensure(1);
        buf[len++] = (byte) b;
    }

    private void put(byte[] bytes) {
        ensure(bytes.length);
        System.arraycopy(bytes, 0, buf, len, bytes.length);
        len += bytes.length;
    }

    private void ensure(int more) {
        if (len + more > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + more));
        }
    }

    private static final byte[] TRUE = "true".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] FALSE = "false".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NULL = "null".getBytes(StandardCharsets.US_ASCII);
}
