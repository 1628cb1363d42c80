package io.lahar.streams.bench;

import java.io.File;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.FileRecords;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.record.MemoryRecordsBuilder;
import org.apache.kafka.common.record.Record;
import org.apache.kafka.common.record.RecordBatch;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.utils.BufferSupplier;
import org.apache.kafka.common.utils.CloseableIterator;

/**
 * What a codec costs where (docs/decisions/030), on the records of log segments (e.g.
 * {@code lahar.job-status}'s after a lifecycle benchmark run), batch by batch as they were stored.
 * For each codec: the bytes stored; a producer's CPU to compress the batches in it; the broker's
 * CPU when the producer sends lz4 (the streams-app's; {@code --sent} another) and the topic's
 * {@code compression.type} is that codec (it decompresses and reads every batch it receives, its validation, and writes the batch
 * again unless the codecs match); a consumer's CPU to decompress what is stored. The CPU of this
 * one thread, median of the passes, so the figures hardly depend on what else the machine runs.
 *
 * <pre>
 *   Recompression [--passes N] [--sent CODEC] SEGMENT.log...     (CODEC: what the producer sends, lz4 by default)
 * </pre>
 */
public final class Recompression {

    private record Codec(String name, Compression compression) {}

    private static final List<Codec> CODECS = List.of(
            new Codec("uncompressed", Compression.NONE),
            new Codec("lz4", Compression.lz4().build()),
            new Codec("gzip level 1", Compression.gzip().level(1).build()),
            new Codec("gzip level 6 (Kafka's default)", Compression.gzip().build()),
            new Codec("zstd", Compression.zstd().build()),
            new Codec("snappy", Compression.snappy().build()));

    public static void main(String[] args) throws Exception {
        int passes = 5;
        Codec sentIn = CODECS.get(1);
        List<File> segments = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--passes")) {
                passes = Integer.parseInt(args[++i]);
            } else if (args[i].equals("--sent")) {
                String name = args[++i];
                sentIn = CODECS.stream()
                        .filter(c -> c.name().startsWith(name))
                        .findFirst()
                        .orElseThrow(() -> new IllegalArgumentException("unknown codec " + name));
            } else {
                segments.add(new File(args[i]));
            }
        }
        List<List<Record>> batches = read(segments);
        long records = batches.stream().mapToLong(List::size).sum();
        long raw = batches.stream()
                .flatMap(List::stream)
                .mapToLong(Record::sizeInBytes)
                .sum();
        // What the producer sends: the same batches in its codec (the streams-app's: lz4).
        Codec producerCodec = sentIn;
        List<MemoryRecords> sent =
                batches.stream().map(b -> write(b, producerCodec.compression())).toList();
        System.out.printf(
                Locale.ROOT,
                "%d batches, %d records, %.1f MB of records uncompressed, %.2f MB sent in %s%n",
                batches.size(),
                records,
                raw / 1e6,
                sent.stream().mapToLong(MemoryRecords::sizeInBytes).sum() / 1e6,
                sentIn.name());
        System.out.printf(
                Locale.ROOT,
                "%-32s %10s %24s %36s %26s%n",
                "codec",
                "stored MB",
                "producer: compress (ms)",
                "broker: validate, rewrite (ms)",
                "consumer: decompress (ms)");
        // Untimed passes first, so every codec's code is compiled before any is timed.
        for (int warmUp = 0; warmUp < 2; warmUp++) {
            for (Codec codec : CODECS) {
                measure(batches, sent, sentIn, codec, 1);
            }
        }
        for (Codec codec : CODECS) {
            double[] m = measure(batches, sent, sentIn, codec, passes);
            System.out.printf(
                    Locale.ROOT,
                    "%-32s %10.2f %24.0f %36.0f %26.0f%n",
                    codec.name(),
                    m[0] / 1e6,
                    m[1] / 1e6,
                    m[2] / 1e6,
                    m[3] / 1e6);
        }
    }

    /** Bytes stored, then the median CPU ns of the producer's, the broker's and a consumer's work. */
    private static double[] measure(
            List<List<Record>> batches, List<MemoryRecords> sent, Codec sentIn, Codec codec, int passes) {
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        List<MemoryRecords> stored =
                batches.stream().map(b -> write(b, codec.compression())).toList();
        long[] producer = new long[passes];
        long[] broker = new long[passes];
        long[] consumer = new long[passes];
        for (int p = 0; p < passes; p++) {
            long t0 = cpu.getCurrentThreadCpuTime();
            batches.forEach(b -> write(b, codec.compression()));
            long t1 = cpu.getCurrentThreadCpuTime();
            List<List<Record>> validated =
                    sent.stream().map(Recompression::readThrough).toList();
            if (codec != sentIn) {
                validated.forEach(b -> write(b, codec.compression()));
            }
            long t2 = cpu.getCurrentThreadCpuTime();
            stored.forEach(Recompression::readThrough);
            long t3 = cpu.getCurrentThreadCpuTime();
            producer[p] = t1 - t0;
            broker[p] = t2 - t1;
            consumer[p] = t3 - t2;
        }
        return new double[] {
            stored.stream().mapToLong(MemoryRecords::sizeInBytes).sum(),
            median(producer),
            median(broker),
            median(consumer)
        };
    }

    /** The records of every batch of the segments, decompressed. */
    private static List<List<Record>> read(List<File> segments) throws Exception {
        List<List<Record>> batches = new ArrayList<>();
        for (File segment : segments) {
            try (FileRecords file = FileRecords.open(segment, false)) {
                for (RecordBatch batch : file.batches()) {
                    if (!batch.isControlBatch()) {
                        List<Record> records = new ArrayList<>();
                        batch.forEach(records::add);
                        batches.add(records);
                    }
                }
            }
        }
        return batches;
    }

    /** Every record of the batches decompressed and read through, as a broker validating them or a consumer does. */
    private static List<Record> readThrough(MemoryRecords records) {
        List<Record> out = new ArrayList<>();
        for (RecordBatch batch : records.batches()) {
            try (CloseableIterator<Record> it = batch.streamingIterator(BufferSupplier.NO_CACHING)) {
                it.forEachRemaining(out::add);
            }
        }
        return out;
    }

    private static MemoryRecords write(List<Record> records, Compression compression) {
        // As the producer does: a batch-sized buffer, grown if need be.
        MemoryRecordsBuilder builder =
                MemoryRecords.builder(ByteBuffer.allocate(16 * 1024), compression, TimestampType.CREATE_TIME, 0L);
        records.forEach(r -> builder.append(r.timestamp(), r.key(), r.value(), r.headers()));
        return builder.build();
    }

    private static double median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    private Recompression() {}
}
