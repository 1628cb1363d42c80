package io.lahar.streams.job;

import io.lahar.core.api.Job;
import io.lahar.core.api.JobSpec;
import io.lahar.core.api.Manifests;
import io.lahar.schema.JobStatusRecord;
import io.lahar.schema.codec.JobStatusCodec;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Job-status records with the job's manifest rendered once per spec, not once per record: the
 * contract (docs/topics.md) puts the admitted manifest in every status record, but a pod event
 * changes only the status, so the JSON of the unchanged job is reused. The record is what
 * {@link JobStatusCodec#toRecord(Job, long)} gives, byte for byte: the codec maps the status of a
 * copy of the job whose spec carries only the queue (all it reads besides the manifest), with the
 * manifest it would render, {@code Manifests.toJson(job.withStatus(null))}, remembered per job
 * key while the job's spec is the same object and its metadata is equal.
 */
final class StatusRecords {

    private record Rendered(Job bare, String manifest) {
    }

    private final Map<String, Rendered> manifests;

    StatusRecords(int capacity) {
        this.manifests = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Rendered> eldest) {
                return size() > capacity;
            }
        };
    }

    JobStatusRecord toRecord(String key, Job job, long time) {
        Job bare = job.withStatus(null);
        Rendered rendered = manifests.get(key);
        if (rendered == null || !sameManifest(rendered.bare(), bare)) {
            rendered = new Rendered(bare, Manifests.toJson(bare));
            manifests.put(key, rendered);
        }
        return JobStatusCodec.toRecord(job.withSpec(queueOnly(job.spec())), rendered.manifest(), time);
    }

    /** Same spec object (pod events keep it), equal metadata, apiVersion and kind. */
    private static boolean sameManifest(Job a, Job b) {
        return a.spec() == b.spec() && Objects.equals(a.metadata(), b.metadata())
                && Objects.equals(a.apiVersion(), b.apiVersion()) && Objects.equals(a.kind(), b.kind());
    }

    private static JobSpec queueOnly(JobSpec spec) {
        return new JobSpec(null, null, null, null, null, null, null, spec.queue(), null, null, null, null, null);
    }
}
