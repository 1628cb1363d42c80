package io.lahar.streams.job;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import io.lahar.core.api.JobSpec;
import io.lahar.core.api.Manifests;
import io.lahar.core.api.ObjectMeta;
import io.lahar.core.command.JobVerdict;
import io.lahar.core.job.JobPod;
import io.lahar.core.job.PodPhase;
import io.lahar.core.util.LruMap;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * The writer of a job's entry as JSON: the same bytes as {@code Manifests.jsonMapper()} writes for
 * a {@link JobEntry}, made with less work where the stream thread spends it. Why: the entry of every
 * job changed in a commit is encoded at that commit (~3.4 KB for a job of 8 pods), and databind,
 * calling record accessors through method handles, took a fifth of the stream thread's time on the
 * lifecycle benchmark. Two things differ from plain databind:
 * <ul>
 *   <li>The parts of an entry a pod event never changes — the job's spec and metadata and the command
 *       gate's verdicts (each holding the admitted job) — are written as JSON rendered once per
 *       object: the same object (by identity; the core's values are immutable) gives the same text.
 *       Remembered for the last {@code capacity} objects.</li>
 *   <li>Pods, up to {@link JobEntryStore#INLINE_PODS} per entry, are written field by field
 *       ({@link #writePod}); so is each record of the {@code job-pods} store (a bigger job's pods).</li>
 * </ul>
 * One instance per store, used by one thread (the stream thread of the store's task).
 */
final class JobEntryJson {

    private final ObjectMapper plain = Manifests.jsonMapper();
    private final Map<Ref, SerializableString> rendered;
    private final ObjectWriter writer;

    JobEntryJson(int capacity) {
        this.rendered = new LruMap<>(capacity);
        SimpleModule module = new SimpleModule("lahar-job-entry");
        module.addSerializer(JobSpec.class, new Rendered<>(JobSpec.class));
        module.addSerializer(ObjectMeta.class, new Rendered<>(ObjectMeta.class));
        module.addSerializer(JobVerdict.class, new Rendered<>(JobVerdict.class));
        module.addSerializer(JobPod.class, new StdSerializer<>(JobPod.class) {
            @Override
            public void serialize(JobPod pod, JsonGenerator gen, SerializerProvider provider) throws IOException {
                writePod(pod, gen);
            }
        });
        this.writer = plain.copy().registerModule(module).writerFor(JobEntry.class);
    }

    void write(java.io.OutputStream out, JobEntry entry) {
        try {
            writer.writeValue(out, entry);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A pod as databind writes the record: its components in declaration order, a null exit code
     * left out (the mapper's NON_NULL inclusion). JobEntryJsonTest holds it to databind's bytes with
     * every component set, so a component added to {@link JobPod} fails the build until written here.
     */
    static void writePod(JobPod pod, JsonGenerator gen) throws IOException {
        gen.writeStartObject();
        if (pod.name() != null) {
            gen.writeFieldName(NAME);
            gen.writeString(pod.name());
        }
        if (pod.task() != null) {
            gen.writeFieldName(TASK);
            gen.writeString(pod.task());
        }
        gen.writeFieldName(INDEX);
        gen.writeNumber(pod.index());
        gen.writeFieldName(VERSION);
        gen.writeNumber(pod.version());
        if (pod.phase() != null) {
            gen.writeFieldName(PHASE);
            gen.writeString(PHASES[pod.phase().ordinal()]);
        }
        if (pod.exitCode() != null) {
            gen.writeFieldName(EXIT_CODE);
            gen.writeNumber(pod.exitCode().intValue());
        }
        gen.writeFieldName(RESTART_COUNT);
        gen.writeNumber(pod.restartCount());
        gen.writeFieldName(OBSERVED);
        gen.writeBoolean(pod.observed());
        gen.writeFieldName(TERMINATING);
        gen.writeBoolean(pod.terminating());
        gen.writeEndObject();
    }

    // Names with their UTF-8 bytes made once: the generator copies them.
    private static final SerializableString NAME = new SerializedString("name");
    private static final SerializableString TASK = new SerializedString("task");
    private static final SerializableString INDEX = new SerializedString("index");
    private static final SerializableString VERSION = new SerializedString("version");
    private static final SerializableString PHASE = new SerializedString("phase");
    private static final SerializableString EXIT_CODE = new SerializedString("exitCode");
    private static final SerializableString RESTART_COUNT = new SerializedString("restartCount");
    private static final SerializableString OBSERVED = new SerializedString("observed");
    private static final SerializableString TERMINATING = new SerializedString("terminating");
    private static final SerializableString[] PHASES = java.util.Arrays.stream(PodPhase.values())
            .map(p -> new SerializedString(p.name())).toArray(SerializableString[]::new);

    /** Identity of an object, for the memo of rendered JSON. */
    private record Ref(Object value) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Ref r && r.value == value;
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(value);
        }
    }

    /** Writes the JSON databind gives for the value, rendered once per object. */
    private final class Rendered<T> extends StdSerializer<T> {

        Rendered(Class<T> type) {
            super(type);
        }

        @Override
        public void serialize(T value, JsonGenerator gen, SerializerProvider provider) throws IOException {
            Ref ref = new Ref(value);
            SerializableString json = rendered.get(ref);
            if (json == null) {
                try {
                    // Kept with its UTF-8 bytes, which the generator copies as they are.
                    json = new SerializedString(plain.writeValueAsString(value));
                } catch (JsonProcessingException e) {
                    throw new UncheckedIOException(e);
                }
                rendered.put(ref, json);
            }
            gen.writeRawValue(json);
        }
    }
}
