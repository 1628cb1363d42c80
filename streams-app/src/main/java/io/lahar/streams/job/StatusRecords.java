package io.lahar.streams.job;

import io.lahar.core.api.Job;
import io.lahar.core.api.JobSpec;
import io.lahar.core.api.Manifests;
import io.lahar.core.util.LruMap;
import io.lahar.schema.JobStatusRecord;
import io.lahar.schema.codec.JobStatusCodec;
import io.lahar.schema.serde.CachingAvroSerializer;
import java.io.IOException;
import java.util.Map;
import java.util.Objects;
import org.apache.avro.io.Encoder;
import org.apache.avro.util.Utf8;

/**
 * Job-status records with the job's manifest rendered once per spec, not once per record: the
 * contract (docs/topics.md) puts the admitted manifest in every status record, but a pod event
 * changes only the status, so the JSON of the unchanged job is reused. The record is what
 * {@link JobStatusCodec#toRecord(Job, long)} gives, byte for byte: the codec maps the status of a
 * copy of the job whose spec carries only the queue (all it reads besides the manifest), with the
 * manifest it would render, {@code Manifests.toJson(job.withStatus(null))}, remembered per job
 * key while the job's spec is the same object and its metadata is equal. It is sent as a
 * {@link Value}, which the sink writes straight from the job ({@link JobStatusCodec#write}) with
 * the manifest kept as UTF-8 (a {@link Utf8}, which also keeps its text).
 *
 * <p>It also remembers, per job key, the status of the last record made (the last one sent): the
 * coalescing of pending statuses needs to know what readers have already seen
 * ({@link StatusCoalescer}). Forgotten when the task's transaction is dropped.
 */
final class StatusRecords {

    /** {@code shown}: the job of the last record made, null when not known. */
    private record Rendered(Job bare, Utf8 manifest, Job shown) {}

    /**
     * A status record to send, written straight from the job by {@link JobStatusCodec#write} (the
     * manifest encoded once per spec) rather than built and walked by Avro's writer; the same bytes.
     */
    record Value(Job job, Utf8 manifest, long time) implements CachingAvroSerializer.Direct<JobStatusRecord> {
        @Override
        public JobStatusRecord record() {
            // A Utf8 made from a String keeps it: no decoding here.
            return JobStatusCodec.toRecord(job.withSpec(queueOnly(job.spec())), manifest.toString(), time);
        }

        @Override
        public void write(Encoder out) throws IOException {
            JobStatusCodec.write(job, manifest, time, out);
        }
    }

    private final Map<String, Rendered> manifests;

    StatusRecords(int capacity) {
        this.manifests = new LruMap<>(capacity);
    }

    /**
     * The record to send for {@code job}; remembered as what readers of the job have seen.
     *
     * @throws IllegalArgumentException when the job has no phase yet
     */
    Value toRecord(String key, Job job, long time) {
        JobStatusCodec.requirePhase(job);
        Job bare = job.withStatus(null);
        Rendered rendered = manifests.get(key);
        Utf8 manifest = rendered == null || !sameManifest(rendered.bare(), bare)
                ? new Utf8(Manifests.toJson(bare))
                : rendered.manifest();
        manifests.put(key, new Rendered(bare, manifest, job));
        return new Value(job, manifest, time);
    }

    /** The job of the last record made for {@code key}; null when not known (or a tombstone since). */
    Job shown(String key) {
        Rendered rendered = manifests.get(key);
        return rendered == null ? null : rendered.shown();
    }

    /** A tombstone was sent for {@code key}: nothing of the job is shown any more. */
    void tombstone(String key) {
        manifests.remove(key);
    }

    /** The records made since the last commit were dropped with its transaction: what was shown is not known. */
    void forgetShown() {
        manifests.replaceAll((key, r) -> new Rendered(r.bare(), r.manifest(), null));
    }

    /** Same spec object (pod events keep it), equal metadata, apiVersion and kind. */
    private static boolean sameManifest(Job a, Job b) {
        return a.spec() == b.spec()
                && Objects.equals(a.metadata(), b.metadata())
                && Objects.equals(a.apiVersion(), b.apiVersion())
                && Objects.equals(a.kind(), b.kind());
    }

    private static JobSpec queueOnly(JobSpec spec) {
        return new JobSpec(null, null, null, null, null, null, null, spec.queue(), null, null, null, null, null);
    }
}
