package io.lahar.streams.job;

import io.lahar.core.api.JobSpec;
import io.lahar.core.job.JobPod;
import io.lahar.streams.kafka.StateSize;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The {@code jobs} store as the lifecycle sees it: decoded {@link JobEntry} objects in front of
 * the changelogged byte store, written back when Kafka Streams commits.
 *
 * <p>Why: a pod event changes a few counters of a job, yet decoding and re-encoding the whole
 * entry (spec, pod template, pods) for each one was most of the stream thread's work. Here a
 * job's entry is decoded once, kept as an object, and encoded once per commit however many of
 * its events the commit covers.
 *
 * <p>Why it stays exactly-once: the lifecycle engine calls {@link #commit()} before Kafka Streams
 * commits the task ({@link io.lahar.streams.job.kstreams.TaskCommit}): it puts every entry changed
 * since the last commit into the inner store, whose changelog writes join the same transaction as
 * the input offsets. When the task drops what it did not commit (closed dirty after a failed
 * transaction, a lost partition), {@link #discard()} drops the unwritten entries with the
 * transaction, and the state is restored from the changelog as before. The changelog thus holds
 * the state at each commit, which is what a restore or a replay needs; a store rebuilt from it
 * behaves the same (docs/decisions/002-write-behind-job-entry-store.md).
 *
 * <p>A job of more than {@value #INLINE_PODS} pods keeps them out of its entry's bytes: they are
 * records of the {@code job-pods} store ({@link JobStore#PODS}) in buckets of up to
 * {@value PodBuckets#SIZE}, a bucket written at the same flush when one of its pods changed, so
 * what a commit writes follows what changed and no entry grows with its job (a job of thousands of
 * pods would not fit in a changelog record). A smaller job keeps its pods in its entry: one record
 * per commit, cheaper for small jobs than a record per pod
 * (docs/decisions/003-pod-counts-kept-big-jobs-in-buckets.md). Loading an entry reads its pod
 * records back; a job that crosses the line either way has its pods moved at the next flush.
 *
 * <p>Interactive queries (the REST API) read the inner store: the state as of the last commit, up
 * to one commit interval behind the stream thread, never a state a failed transaction rolls back.
 * Only the stream thread touches the object cache.
 *
 * <p>The size limit of one changelog record is checked when an entry is put if its encoded size is
 * unknown, was already over half the limit, or its job spec changed (a submit or an update): what
 * only a pod event or a timer changes cannot double an entry in one commit interval. A flush that
 * still meets an oversized entry fails the task loudly, naming the job.
 */
public final class JobEntryStore {

    /** The most pods a job keeps in its entry; a job with more has them in buckets of their own. */
    static final int INLINE_PODS = 256;

    /** Decoded entries kept per task (clean ones; the changed ones stay until the next commit). */
    static final int DEFAULT_CAPACITY = 1024;

    private final KeyValueStore<String, byte[]> inner;
    /** The {@code job-pods} store ({@link JobStore#PODS}). */
    private final KeyValueStore<String, byte[]> pods;

    private final JobStore.Codec codec;
    private final int capacity;
    private final Map<String, Slot> slots;
    /**
     * The slots whose entry changed since the last flush, in the order first changed; one evicted
     * meanwhile was written then and is no longer {@link Slot#dirty} (a slot, not a key, so neither
     * a change nor the flush looks the job up again).
     */
    private final List<Slot> dirty = new ArrayList<>();
    /**
     * The slot the last {@link #load} or {@link #save} found or made: the engine saves the job it
     * has just loaded, and a second lookup per input was measurable on the stream thread. Never an
     * evicted slot: only a put evicts, and each put remembers the slot it put. Null once the cache
     * is dropped.
     */
    private Slot lastSlot;
    /**
     * One job's decoded entry; {@code encoded} holds its bytes (as the entry is stored) when they
     * were made at put time (to check the size) and not yet written, {@code size} the last known encoded size
     * (-1: unknown), {@code written} the job's pods as the {@code job-pods} store has them, {@code dirty}
     * whether the entry changed since it was last written.
     */
    private static final class Slot {
        final String key;
        JobEntry entry;
        byte[] encoded;
        int size;
        SortedMap<String, JobPod> written;
        boolean dirty;

        Slot(String key, JobEntry entry, byte[] encoded, int size, SortedMap<String, JobPod> written) {
            this.key = key;
            this.entry = entry;
            this.encoded = encoded;
            this.size = size;
            this.written = written;
        }
    }

    /**
     * @param inner the {@code jobs} byte store (changelogged), which keeps the entries as encoded at each commit
     * @param pods  the {@code job-pods} byte store (changelogged), which keeps the pods of big jobs in buckets
     */
    public JobEntryStore(
            KeyValueStore<String, byte[]> inner,
            KeyValueStore<String, byte[]> pods,
            JobStore.Codec codec,
            int capacity) {
        this.inner = inner;
        this.pods = pods;
        this.codec = codec;
        this.capacity = capacity;
        // Access order: the least recently used entry is evicted first, written out first if changed.
        this.slots = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Slot> eldest) {
                if (size() <= JobEntryStore.this.capacity) {
                    return false;
                }
                Slot slot = eldest.getValue();
                if (slot.dirty) {
                    write(slot);
                }
                return true;
            }
        };
    }

    /** The job's entry; empty for a key never seen. */
    public JobEntry load(String key) {
        Slot slot = slots.get(key);
        if (slot != null) {
            lastSlot = slot;
            return slot.entry;
        }
        byte[] bytes = inner.get(key);
        if (bytes == null) {
            return JobEntry.empty();
        }
        JobEntry entry = codec.decode(bytes);
        // An entry that holds its pods has no records of them (a flush moves them one way or the other).
        SortedMap<String, JobPod> stored =
                entry.info().pods().isEmpty() ? storedPods(key) : Collections.emptySortedMap();
        if (!stored.isEmpty()) {
            TreeMap<String, JobPod> all = new TreeMap<>(entry.info().pods());
            all.putAll(stored);
            entry = entry.withInfo(entry.info().withPods(all));
        }
        slot = new Slot(key, entry, null, bytes.length, stored);
        slots.put(key, slot);
        lastSlot = slot;
        return entry;
    }

    /** The job's pods in the {@code job-pods} store, by name. */
    private SortedMap<String, JobPod> storedPods(String key) {
        return PodBuckets.read(key, pods, codec);
    }

    /**
     * Keeps {@code after} as the job's entry; it reaches the inner store (and its changelog) at
     * the next flush, or when evicted.
     *
     * @throws StateSize.TooLarge naming the job, when the entry is checked and would not fit
     *     in one changelog record (nothing is changed then)
     */
    public void save(String key, JobEntry after) {
        save(key, after, JobStore.MAX_BYTES);
    }

    /**
     * As {@link #save(String, JobEntry)}, refusing an entry whose job spec changed (a submit or an
     * update: its size is always checked then) when it is over {@code limit} bytes.
     */
    public void save(String key, JobEntry after, int limit) {
        // The same key object as the last load's (the engine passes it through), else a lookup.
        Slot slot = lastSlot != null && lastSlot.key == key ? lastSlot : slots.get(key);
        if (slot == null || mustCheckSize(slot, after)) {
            byte[] bytes = codec.encode(key, entryRecord(after), limit);
            if (slot == null) {
                slot = new Slot(key, after, bytes, bytes.length, storedPods(key));
                slots.put(key, slot);
                lastSlot = slot;
            } else {
                slot.entry = after;
                slot.encoded = bytes;
                slot.size = bytes.length;
            }
        } else {
            slot.entry = after;
            slot.encoded = null;
        }
        if (!slot.dirty) {
            slot.dirty = true;
            dirty.add(slot);
        }
    }

    private static boolean mustCheckSize(Slot slot, JobEntry after) {
        return slot.size < 0 || slot.size > JobStore.MAX_BYTES / 2 || spec(slot.entry) != spec(after);
    }

    private static JobSpec spec(JobEntry entry) {
        return entry.info().job() == null ? null : entry.info().job().spec();
    }

    /**
     * Puts one changed entry into the inner store (encoding it unless its bytes are fresh), and
     * into the {@code job-pods} store the buckets of the pods that changed since it was last written.
     */
    private void write(Slot slot) {
        slot.dirty = false;
        String key = slot.key;
        byte[] bytes = slot.encoded != null ? slot.encoded : codec.encode(key, entryRecord(slot.entry));
        inner.put(key, bytes);
        slot.encoded = null;
        slot.size = bytes.length;
        SortedMap<String, JobPod> now = podRecords(slot.entry);
        PodBuckets.write(key, slot.written, now, pods, codec);
        slot.written = now;
    }

    private static boolean inline(JobEntry entry) {
        return entry.info().pods().size() <= INLINE_PODS;
    }

    /** The entry as the {@code jobs} store keeps it: without its pods when they have records of their own. */
    private static JobEntry entryRecord(JobEntry entry) {
        return inline(entry) ? entry : entry.withInfo(entry.info().withPods(Map.of()));
    }

    /** The job's pods as the {@code job-pods} store should have them: none while they are in the entry. */
    private static SortedMap<String, JobPod> podRecords(JobEntry entry) {
        return inline(entry) ? Collections.emptySortedMap() : entry.info().pods();
    }

    /** Writes every entry changed since the last commit: called before Kafka Streams commits the task. */
    public void commit() {
        for (Slot slot : dirty) {
            if (slot.dirty) {
                write(slot);
            }
        }
        dirty.clear();
    }

    /** The task dropped what it did not commit: so are the objects, changed or not; the next load reads the store. */
    public void discard() {
        slots.clear();
        dirty.clear();
        lastSlot = null;
    }

    /** Entries changed and not yet written to the inner store (for tests and metrics). */
    int unwritten() {
        return (int) dirty.stream().filter(slot -> slot.dirty).count();
    }
}
