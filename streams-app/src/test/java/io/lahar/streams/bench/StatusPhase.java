package io.lahar.streams.bench;

import io.lahar.schema.JobStatusRecord;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;

/**
 * Reads only {@code status.state.phase} of a {@code lahar.job-status} record's bytes (registry wire
 * format: a 5-byte header, then Avro binary), the way a dashboard that wants the phase alone could:
 * Avro's schema resolution against a reader schema of that one field skips the rest (the manifest
 * above all) without building it.
 *
 * <p>Why: the harness watches every status record of a round for "Completed" on its own thread,
 * inside the topology's JVM and timed window; decoding each record in full (its manifest above all) took
 * CPU from the topology that the raw loops' watcher, which only counts, does not.
 *
 * <p>One thread at a time (the round's watcher): the decoder is reused.
 */
final class StatusPhase {

    private static final int HEADER = 5;

    private final GenericDatumReader<GenericRecord> reader;
    private BinaryDecoder decoder;

    StatusPhase() {
        Schema writer = JobStatusRecord.getClassSchema();
        Schema status = writer.getField("status").schema();
        Schema state = status.getField("state").schema();
        // The same record names as the writer's: Avro resolves records by name.
        Schema stateProjection = SchemaBuilder.record(state.getName())
                .namespace(state.getNamespace())
                .fields()
                .requiredString("phase")
                .endRecord();
        Schema statusProjection = SchemaBuilder.record(status.getName())
                .namespace(status.getNamespace())
                .fields()
                .name("state")
                .type(stateProjection)
                .noDefault()
                .endRecord();
        Schema projection = SchemaBuilder.record(writer.getName())
                .namespace(writer.getNamespace())
                .fields()
                .name("status")
                .type(statusProjection)
                .noDefault()
                .endRecord();
        reader = new GenericDatumReader<>(writer, projection);
    }

    /** The record's job phase; null for a tombstone. */
    String of(byte[] value) {
        if (value == null) {
            return null;
        }
        decoder = DecoderFactory.get().binaryDecoder(value, HEADER, value.length - HEADER, decoder);
        try {
            GenericRecord record = reader.read(null, decoder);
            return ((GenericRecord) ((GenericRecord) record.get("status")).get("state"))
                    .get("phase")
                    .toString();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
