package io.lahar.streams.job;

import com.fasterxml.jackson.databind.ObjectReader;
import io.lahar.core.api.Manifests;
import io.lahar.core.job.JobPod;
import io.lahar.streams.job.kstreams.CommitHookStore;
import io.lahar.streams.kafka.StateSize;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * How a job's entry is kept in the {@code jobs} state store, and its pods in the {@code job-pods}
 * store: JSON, readable in a changelog dump, behind the stream thread's object cache
 * ({@link JobEntryStore}).
 */
public final class JobStore {

    public static final String NAME = "jobs";
    /**
     * The pods of jobs with more than {@link JobEntryStore#INLINE_PODS}, in buckets of up to
     * {@value PodBuckets#SIZE} ({@link PodBuckets}). Why apart from the entry: a job's entry would
     * grow with its pods past what one changelog record holds (a big enough job failed the task at
     * its first commit), and every commit would rewrite all of a job's pods to change a few
     * (docs/decisions/003-pod-counts-kept-big-jobs-in-buckets.md).
     */
    public static final String PODS = "job-pods";

    /** Maximum stored size; a record above it would not fit in the changelog topic. */
    static final int MAX_BYTES = StateSize.MAX_BYTES;

    /**
     * What a job's entry may grow by after a command, before the next command: the pods it keeps
     * inline ({@link JobEntryStore#INLINE_PODS} of them, a few hundred bytes each at most), its
     * status and timers, the scheduler's conditions on its pod group, the verdicts of actions.
     */
    static final int GROWTH_BYTES = 128 * 1024;

    /**
     * The most a submit or an update may leave a job's entry at: past it, the command is refused
     * with the size, rather than a later pod event finding the entry over {@link #MAX_BYTES}.
     */
    public static final int COMMAND_MAX_BYTES = MAX_BYTES - GROWTH_BYTES;

    private JobStore() {}

    /**
     * The {@code jobs} store: a persistent, changelogged byte store that hears the task's commits, so
     * that the lifecycle's entry cache ({@link JobEntryStore}) in front of it writes at each.
     */
    public static StoreBuilder<CommitHookStore> builder() {
        return CommitHookStore.builder(
                Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(NAME), Serdes.String(), Serdes.ByteArray()));
    }

    /** The {@code job-pods} store: persistent and changelogged, written by the {@code jobs} store at its commits. */
    public static StoreBuilder<KeyValueStore<String, byte[]>> podsBuilder() {
        return Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(PODS), Serdes.String(), Serdes.ByteArray());
    }

    /** What the keys of a job's pods start with (a job's name has no slash, so no other job's do). */
    static String podPrefix(String jobKey) {
        return jobKey + "/";
    }

    /**
     * An entry's bytes. Encoding remembers JSON rendered for the unchanging parts of entries
     * ({@link JobEntryJson}), so one codec encodes on one thread: each store has its own.
     */
    public static final class Codec {

        /**
         * Jobs whose unchanging parts' JSON is remembered: those of the cached entries and a margin (the
         * two caches order their jobs by different uses). No more: the parts are matched by identity, a
         * job decoded afresh never matches, and what is remembered keeps its objects alive.
         */
        private static final int RENDERED_CAPACITY =
                JobEntryStore.DEFAULT_CAPACITY + JobEntryStore.DEFAULT_CAPACITY / 8;
        // Bound to the type once: no per-call type resolution.
        private static final ObjectReader READER = Manifests.jsonMapper().readerFor(JobEntry.class);
        private static final ObjectReader POD_READER = Manifests.jsonMapper().readerFor(JobPod[].class);
        /** Made on first use: codecs that only decode (interactive queries) never need it. */
        private JobEntryJson writer;

        /**
         * @throws StateSize.TooLarge naming the key and the size, when the entry would not fit in one
         *     changelog record: state per job must stay bounded, and failing loudly beats a
         *     changelog the broker refuses
         */
        public byte[] encode(String key, JobEntry entry) {
            return encode(key, entry, MAX_BYTES);
        }

        /** As {@link #encode(String, JobEntry)}, refusing an entry over {@code limit} (at most {@link #MAX_BYTES}) bytes. */
        byte[] encode(String key, JobEntry entry, int limit) {
            if (writer == null) {
                writer = new JobEntryJson(RENDERED_CAPACITY);
            }
            JsonBytes out = buffer();
            writer.write(out, key, entry);
            if (out.size() > Math.min(limit, MAX_BYTES)) {
                int size = out.size();
                buffer = null;
                StateSize.check("job " + key, size, limit);
            }
            return out.toByteArray();
        }

        /**
         * The codec encodes into one buffer it keeps, copied out once per entry (a codec that encodes
         * is its store's, used by the task's stream thread only, as its writer). Why: a fresh buffer
         * per entry (every job changed in a commit) was one of the stream thread's largest
         * allocations; a thread-local buffer would cost a lookup per entry.
         */
        private JsonBytes buffer;

        private JsonBytes buffer() {
            if (buffer == null) {
                buffer = new JsonBytes();
            }
            buffer.reset();
            return buffer;
        }

        /** A bucket's record in the {@code job-pods} store ({@link PodBuckets}): its pods' JSON, as in an entry, in an array. */
        public byte[] encodePods(List<JobPod> pods) {
            JsonBytes out = buffer();
            out.startArray();
            for (JobPod pod : pods) {
                JobEntryJson.writePod(pod, out);
            }
            out.endArray();
            return out.toByteArray();
        }

        public JobPod[] decodePods(byte[] bytes) {
            try {
                return POD_READER.readValue(bytes);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        public JobEntry decode(byte[] bytes) {
            try {
                return READER.readValue(bytes);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
