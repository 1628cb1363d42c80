package io.lahar.schema.serde;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.InvalidNumberEncodingException;
import org.apache.avro.SystemLimitException;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.Decoder;
import org.apache.avro.util.Utf8;

/**
 * Avro's binary encoding read from one byte array: what {@link BinaryDecoder} reads from the same
 * bytes — the same values, Avro's own size limits ({@link SystemLimitException}) and an
 * {@link EOFException} past the end (a negative size is malformed data here, which
 * {@link BinaryDecoder} would skip backwards over) — with strings made straight from the array.
 *
 * <p>Why: a registry record is a whole array already in memory, and {@link BinaryDecoder} reads
 * every string through a scratch {@link Utf8} — the bytes copied into it, then decoded into a
 * {@code String} — and each record needs a decoder of its own (an object with its byte source).
 * The job lifecycle reads six strings of a pod event for every record; this decoder reads them
 * without the copies (docs/decisions/008-codecs-held-to-library-bytes.md).
 *
 * <p>Not thread-safe; one per record.
 */
final class ByteArrayDecoder extends Decoder {

    private final byte[] buf;
    private final int limit;
    private int pos;
    /** Items read so far of the array or map being read, for Avro's collection size limit. */
    private long collectionCount;

    /** Reads {@code length} bytes of {@code buf} from {@code offset}. */
    ByteArrayDecoder(byte[] buf, int offset, int length) {
        if (offset < 0 || length < 0 || offset + length > buf.length) {
            throw new IndexOutOfBoundsException(
                    "offset " + offset + ", length " + length + " of " + buf.length + " bytes");
        }
        this.buf = buf;
        this.pos = offset;
        this.limit = offset + length;
    }

    @Override
    public void readNull() {}

    @Override
    public boolean readBoolean() throws IOException {
        require(1);
        // BinaryDecoder: 1 is true, any other byte false.
        return buf[pos++] == 1;
    }

    @Override
    public int readInt() throws IOException {
        // The low 32 bits, as BinaryDecoder keeps them of a five-byte int.
        int n = (int) varint(5, "Invalid int encoding");
        return (n >>> 1) ^ -(n & 1);
    }

    @Override
    public long readLong() throws IOException {
        long n = varint(10, "Invalid long encoding");
        return (n >>> 1) ^ -(n & 1);
    }

    /** The bits of a base-128 varint of at most {@code maxBytes} bytes, before zigzag decoding. */
    private long varint(int maxBytes, String invalid) throws IOException {
        long n = 0;
        for (int i = 0; i < maxBytes; i++) {
            require(1);
            long b = buf[pos++] & 0xff;
            n |= (b & 0x7f) << (7 * i);
            if ((b & 0x80) == 0) {
                return n;
            }
        }
        throw new InvalidNumberEncodingException(invalid);
    }

    @Override
    public float readFloat() throws IOException {
        return Float.intBitsToFloat(littleEndian(4));
    }

    @Override
    public double readDouble() throws IOException {
        long low = littleEndian(4) & 0xffffffffL;
        long high = littleEndian(4) & 0xffffffffL;
        return Double.longBitsToDouble(high << 32 | low);
    }

    @Override
    public Utf8 readString(Utf8 old) throws IOException {
        int length = SystemLimitException.checkMaxStringLength(readLong());
        require(length);
        Utf8 result = old != null ? old : new Utf8();
        result.setByteLength(length);
        System.arraycopy(buf, pos, result.getBytes(), 0, length);
        pos += length;
        return result;
    }

    @Override
    public String readString() throws IOException {
        int length = SystemLimitException.checkMaxStringLength(readLong());
        require(length);
        String s = new String(buf, pos, length, StandardCharsets.UTF_8);
        pos += length;
        return s;
    }

    @Override
    public void skipString() throws IOException {
        skip(readLong());
    }

    @Override
    public ByteBuffer readBytes(ByteBuffer old) throws IOException {
        int length = SystemLimitException.checkMaxBytesLength(readLong());
        require(length);
        ByteBuffer result;
        if (old != null && length <= old.capacity()) {
            result = old;
            result.clear();
        } else {
            result = ByteBuffer.allocate(length);
        }
        System.arraycopy(buf, pos, result.array(), result.arrayOffset() + result.position(), length);
        pos += length;
        result.limit(length);
        return result;
    }

    @Override
    public void skipBytes() throws IOException {
        skip(readLong());
    }

    @Override
    public void readFixed(byte[] bytes, int start, int length) throws IOException {
        require(length);
        System.arraycopy(buf, pos, bytes, start, length);
        pos += length;
    }

    @Override
    public void skipFixed(int length) throws IOException {
        skip(length);
    }

    @Override
    public int readEnum() throws IOException {
        return readInt();
    }

    @Override
    public long readArrayStart() throws IOException {
        collectionCount = SystemLimitException.checkMaxCollectionLength(0L, itemCount());
        return collectionCount;
    }

    @Override
    public long arrayNext() throws IOException {
        long length = itemCount();
        collectionCount = SystemLimitException.checkMaxCollectionLength(collectionCount, length);
        return length;
    }

    @Override
    public long skipArray() throws IOException {
        return skipItems();
    }

    @Override
    public long readMapStart() throws IOException {
        return readArrayStart();
    }

    @Override
    public long mapNext() throws IOException {
        return arrayNext();
    }

    @Override
    public long skipMap() throws IOException {
        return skipItems();
    }

    @Override
    public int readIndex() throws IOException {
        return readInt();
    }

    /** A block's item count; a negative count is followed by the block's size in bytes, not needed here. */
    private long itemCount() throws IOException {
        long count = readLong();
        if (count < 0) {
            readLong();
            count = -count;
        }
        return count;
    }

    /** Skips the blocks that give their size in bytes; returns the items of the next block, to skip one by one (0: the end). */
    private long skipItems() throws IOException {
        long count = readLong();
        while (count < 0) {
            skip(readLong());
            count = readLong();
        }
        return count;
    }

    private int littleEndian(int bytes) throws IOException {
        require(bytes);
        int n = 0;
        for (int i = 0; i < bytes; i++) {
            n |= (buf[pos++] & 0xff) << (8 * i);
        }
        return n;
    }

    private void skip(long length) throws IOException {
        require(length);
        pos += (int) length;
    }

    private void require(long bytes) throws EOFException {
        if (bytes < 0) {
            // Avro's wording; BinaryDecoder would step back over a negative size it skips.
            throw new AvroRuntimeException("Malformed data. Length is negative: " + bytes);
        }
        if (bytes > limit - pos) {
            throw new EOFException(
                    "record ends at byte " + limit + ", " + bytes + " more byte(s) needed at byte " + pos);
        }
    }
}
