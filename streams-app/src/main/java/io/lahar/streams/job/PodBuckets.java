package io.lahar.streams.job;

import io.lahar.core.job.JobPod;
import io.lahar.core.job.PodChanges;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The pods of a big job in the {@code job-pods} store: a record per bucket of up to {@value #SIZE}
 * pods of one task by index ({@code <namespace>/<job>/<task>/<index / SIZE>}), rewritten whole
 * when one of its pods changed, deleted when it has none left.
 *
 * <p>Why buckets: a record per pod made a burst (a whole job's pods turning Running within one
 * commit) cost a changelog record per pod, which took much of the topology's rate on big jobs;
 * the whole job in one record grows with the job (past what a changelog record holds) and is
 * rewritten for any change. A bucket is a record per {@value #SIZE} changed pods in a burst and a
 * bounded record for a lone change (docs/decisions/003-pod-counts-kept-big-jobs-in-buckets.md). A
 * pod's bucket follows from its task and index alone, which never change, so it is found again
 * after a restart.
 */
final class PodBuckets {

    /** The most pods in one bucket. */
    static final int SIZE = 64;

    private PodBuckets() {}

    /** A bucket: pods of {@code task} with an index in [number × SIZE, (number + 1) × SIZE). */
    record Bucket(String task, int number) {
        static Bucket of(JobPod pod) {
            return new Bucket(pod.task(), Math.floorDiv(pod.index(), SIZE));
        }

        String key(String jobKey) {
            return JobStore.podPrefix(jobKey) + task + "/" + number;
        }
    }

    /** The job's pods in the store, by name. */
    static SortedMap<String, JobPod> read(String jobKey, KeyValueStore<String, byte[]> pods, JobStore.Codec codec) {
        TreeMap<String, JobPod> found = new TreeMap<>();
        try (KeyValueIterator<String, byte[]> it =
                pods.prefixScan(JobStore.podPrefix(jobKey), new StringSerializer())) {
            while (it.hasNext()) {
                KeyValue<String, byte[]> kv = it.next();
                for (JobPod pod : codec.decodePods(kv.value)) {
                    found.put(pod.name(), pod);
                }
            }
        }
        return found;
    }

    /**
     * Brings the store from the job's pods {@code before} (as last written) to {@code after}: the
     * buckets of the pods that changed, came or went are rewritten (or deleted when empty).
     */
    static void write(
            String jobKey,
            SortedMap<String, JobPod> before,
            SortedMap<String, JobPod> after,
            KeyValueStore<String, byte[]> pods,
            JobStore.Codec codec) {
        // The buckets the change touched, each with what it holds now (gathered below).
        Map<Bucket, List<JobPod>> dirty = new LinkedHashMap<>();
        PodChanges.between(before, after, new PodChanges() {
            @Override
            public void put(String name, JobPod was, JobPod now) {
                dirty.computeIfAbsent(Bucket.of(now), b -> new ArrayList<>());
                if (was != null) {
                    dirty.computeIfAbsent(Bucket.of(was), b -> new ArrayList<>());
                }
            }

            @Override
            public void removed(String name, JobPod was) {
                dirty.computeIfAbsent(Bucket.of(was), b -> new ArrayList<>());
            }
        });
        if (dirty.isEmpty()) {
            return;
        }
        // One pass over the job's pods gathers what the changed buckets hold now, in name order.
        for (JobPod pod : after.values()) {
            List<JobPod> in = dirty.get(Bucket.of(pod));
            if (in != null) {
                in.add(pod);
            }
        }
        dirty.forEach((b, in) -> {
            if (in.isEmpty()) {
                pods.delete(b.key(jobKey));
            } else {
                pods.put(b.key(jobKey), codec.encodePods(in));
            }
        });
    }
}
