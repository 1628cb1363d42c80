package io.lahar.schema.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.InvalidNumberEncodingException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.Decoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.Encoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.util.Utf8;
import org.junit.jupiter.api.Test;

/** {@link ByteArrayDecoder} reads what Avro's own {@code BinaryDecoder} reads, and fails where it does. */
class ByteArrayDecoderTest {

    /** Every Avro type, strings both as Java strings and as Utf8, a nested record in an array, a union. */
    private static final Schema ALL = new Schema.Parser().parse("""
            {"type":"record","name":"All","namespace":"t","fields":[
              {"name":"b","type":"boolean"},
              {"name":"i","type":"int"},
              {"name":"l","type":"long"},
              {"name":"f","type":"float"},
              {"name":"d","type":"double"},
              {"name":"s","type":{"type":"string","avro.java.string":"String"}},
              {"name":"u","type":"string"},
              {"name":"by","type":"bytes"},
              {"name":"fx","type":{"type":"fixed","name":"Three","size":3}},
              {"name":"e","type":{"type":"enum","name":"Phase","symbols":["Pending","Running","Succeeded"]}},
              {"name":"a","type":{"type":"array","items":"string"}},
              {"name":"m","type":{"type":"map","values":"long"}},
              {"name":"r","type":{"type":"array","items":{"type":"record","name":"Inner","fields":[
                {"name":"name","type":"string"},{"name":"code","type":["null","int"]}]}}},
              {"name":"o","type":["null","string","long"]},
              {"name":"n","type":"null"},
              {"name":"last","type":"int"}
            ]}""");

    /** The same records read with only some fields: the rest skipped (strings, bytes, fixed, arrays, maps). */
    private static final Schema SOME = new Schema.Parser().parse("""
            {"type":"record","name":"All","namespace":"t","fields":[
              {"name":"i","type":"int"},
              {"name":"e","type":{"type":"enum","name":"Phase","symbols":["Pending","Running","Succeeded"]}},
              {"name":"o","type":["null","string","long"]},
              {"name":"last","type":"int"}
            ]}""");

    @Test
    void readsWhatBinaryDecoderReadsWrittenInOneBlockOrInSizedBlocks() throws IOException {
        Random random = new Random(42);
        for (int n = 0; n < 300; n++) {
            GenericRecord record = record(random, n);
            for (boolean blocking : new boolean[] {false, true}) {
                byte[] bytes = write(record, blocking);
                GenericRecord ours = read(ALL, ALL, new ByteArrayDecoder(bytes, 0, bytes.length));
                assertThat(ours)
                        .as("record %d, %s blocks", n, blocking ? "sized" : "plain")
                        .isEqualTo(read(ALL, ALL, DecoderFactory.get().binaryDecoder(bytes, null)))
                        .isEqualTo(record);
                assertThat(ours.get("s")).isInstanceOf(String.class);
                assertThat(ours.get("u")).isInstanceOf(Utf8.class);
                assertThat(read(ALL, SOME, new ByteArrayDecoder(bytes, 0, bytes.length)))
                        .as("record %d projected", n)
                        .isEqualTo(read(ALL, SOME, DecoderFactory.get().binaryDecoder(bytes, null)));
            }
        }
    }

    @Test
    void readsOnlyItsPartOfTheArray() throws IOException {
        GenericRecord record = record(new Random(7), 5);
        byte[] bytes = write(record, false);
        byte[] padded = new byte[bytes.length + 20];
        Arrays.fill(padded, (byte) 0x55);
        System.arraycopy(bytes, 0, padded, 9, bytes.length);

        assertThat(read(ALL, ALL, new ByteArrayDecoder(padded, 9, bytes.length)))
                .isEqualTo(record);
        // One byte short of the record, with the array's bytes right after it: the end is the given length.
        assertThatThrownBy(() -> read(ALL, ALL, new ByteArrayDecoder(padded, 9, bytes.length - 1)))
                .isInstanceOf(EOFException.class);
        assertThatThrownBy(() -> new ByteArrayDecoder(padded, 9, padded.length))
                .isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void aRecordCutShortIsAnEndOfFileWhereverItIsCut() throws IOException {
        byte[] bytes = write(record(new Random(3), 9), true);
        for (int cut = 0; cut < bytes.length; cut++) {
            byte[] prefix = Arrays.copyOf(bytes, cut);
            assertThatThrownBy(() -> read(ALL, ALL, DecoderFactory.get().binaryDecoder(prefix, null)))
                    .as("Avro's own, cut at %d", cut)
                    .isInstanceOf(EOFException.class);
            assertThatThrownBy(() -> read(ALL, ALL, new ByteArrayDecoder(prefix, 0, prefix.length)))
                    .as("cut at %d", cut)
                    .isInstanceOf(EOFException.class);
        }
    }

    @Test
    void malformedNumbersAndLengthsFailAsAvroSays() {
        byte[] sixByteInt = {(byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 0};
        assertThatThrownBy(() -> new ByteArrayDecoder(sixByteInt, 0, 6).readInt())
                .isInstanceOf(InvalidNumberEncodingException.class)
                .hasMessage("Invalid int encoding");
        assertThatThrownBy(() ->
                        DecoderFactory.get().binaryDecoder(sixByteInt, null).readInt())
                .isInstanceOf(InvalidNumberEncodingException.class)
                .hasMessage("Invalid int encoding");
        byte[] elevenByteLong = new byte[11];
        Arrays.fill(elevenByteLong, (byte) 0x80);
        assertThatThrownBy(() -> new ByteArrayDecoder(elevenByteLong, 0, 11).readLong())
                .isInstanceOf(InvalidNumberEncodingException.class)
                .hasMessage("Invalid long encoding");

        byte[] minusOne = {1};
        assertThatThrownBy(() -> new ByteArrayDecoder(minusOne, 0, 1).readString())
                .isInstanceOf(AvroRuntimeException.class)
                .hasMessage("Malformed data. Length is negative: -1");
        assertThatThrownBy(
                        () -> DecoderFactory.get().binaryDecoder(minusOne, null).readString())
                .isInstanceOf(AvroRuntimeException.class)
                .hasMessage("Malformed data. Length is negative: -1");
        assertThatThrownBy(() -> new ByteArrayDecoder(minusOne, 0, 1).skipString())
                .isInstanceOf(AvroRuntimeException.class)
                .hasMessage("Malformed data. Length is negative: -1");
    }

    @Test
    void bytesGoIntoTheBufferGivenWhenItIsLargeEnough() throws IOException {
        byte[] bytes = {6, 1, 2, 3, 4, 9};
        ByteBuffer roomy = ByteBuffer.allocate(8);
        roomy.put((byte) 7);
        ByteBuffer read = new ByteArrayDecoder(bytes, 0, bytes.length).readBytes(roomy);
        assertThat(read).isSameAs(roomy);
        assertThat(read.position()).isZero();
        assertThat(read.remaining()).isEqualTo(3);
        assertThat(read.get(0)).isEqualTo((byte) 1);

        ByteBuffer small = ByteBuffer.allocate(2);
        ByteBuffer fresh = new ByteArrayDecoder(bytes, 0, bytes.length).readBytes(small);
        assertThat(fresh).isNotSameAs(small).isEqualTo(ByteBuffer.wrap(new byte[] {1, 2, 3}));
    }

    private static GenericRecord read(Schema writer, Schema reader, Decoder in) throws IOException {
        return new GenericDatumReader<GenericRecord>(writer, reader).read(null, in);
    }

    /** {@code blocking}: arrays and maps in blocks of a few items, each with its size in bytes (a negative count). */
    private static byte[] write(GenericRecord record, boolean blocking) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Encoder encoder = blocking
                ? new EncoderFactory().configureBlockSize(64).blockingBinaryEncoder(out, null)
                : EncoderFactory.get().binaryEncoder(out, null);
        new GenericDatumWriter<GenericRecord>(ALL).write(record, encoder);
        encoder.flush();
        return out.toByteArray();
    }

    private static GenericRecord record(Random random, int n) {
        GenericRecord r = new GenericData.Record(ALL);
        r.put("b", random.nextBoolean());
        int[] ints = {0, -1, 1, 63, 64, -64, -65, Integer.MAX_VALUE, Integer.MIN_VALUE, random.nextInt()};
        r.put("i", ints[n % ints.length]);
        long[] longs = {0, -1, Long.MAX_VALUE, Long.MIN_VALUE, 1L << 35, random.nextLong()};
        r.put("l", longs[n % longs.length]);
        r.put("f", n % 7 == 0 ? Float.NaN : random.nextFloat() * 1e6f - 5e5f);
        r.put("d", n % 11 == 0 ? Double.NEGATIVE_INFINITY : random.nextGaussian() * 1e12);
        r.put("s", text(random, n));
        r.put("u", new Utf8(text(random, n + 1)));
        byte[] raw = new byte[random.nextInt(40)];
        random.nextBytes(raw);
        r.put("by", ByteBuffer.wrap(raw));
        byte[] three = new byte[3];
        random.nextBytes(three);
        r.put("fx", new GenericData.Fixed(ALL.getField("fx").schema(), three));
        r.put(
                "e",
                new GenericData.EnumSymbol(
                        ALL.getField("e").schema(),
                        List.of("Pending", "Running", "Succeeded").get(n % 3)));
        List<CharSequence> array = new ArrayList<>();
        for (int k = random.nextInt(n % 5 == 0 ? 200 : 6); k > 0; k--) {
            array.add(new Utf8(text(random, k)));
        }
        r.put("a", array);
        Map<CharSequence, Long> map = new HashMap<>();
        for (int k = random.nextInt(n % 4 == 0 ? 150 : 5); k > 0; k--) {
            map.put(new Utf8("key-" + k), random.nextLong());
        }
        r.put("m", map);
        Schema inner = ALL.getField("r").schema().getElementType();
        List<GenericRecord> inners = new ArrayList<>();
        for (int k = random.nextInt(4); k > 0; k--) {
            GenericRecord c = new GenericData.Record(inner);
            c.put("name", new Utf8("container-" + k));
            c.put("code", k % 2 == 0 ? null : random.nextInt(256));
            inners.add(c);
        }
        r.put("r", inners);
        r.put(
                "o",
                switch (n % 3) {
                    case 0 -> null;
                    case 1 -> new Utf8(text(random, n));
                    default -> random.nextLong();
                });
        r.put("n", null);
        r.put("last", n);
        return r;
    }

    /** ASCII, two-, three- and four-byte UTF-8 characters, and the empty string. */
    private static String text(Random random, int n) {
        String[] pieces = {"", "tf-job-worker-" + n, "zürich-é", "节点-" + n, "pod-\uD83D\uDE80", "default"};
        return pieces[random.nextInt(pieces.length)] + (n % 13 == 0 ? "x".repeat(300) : "");
    }
}
