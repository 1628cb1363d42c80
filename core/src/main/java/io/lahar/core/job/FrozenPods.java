package io.lahar.core.job;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.BiConsumer;

/**
 * A job's pods as {@link JobInfo} holds them: sorted by name, unmodifiable, with their
 * {@link PodTally}. A controller run changes them through a {@link Builder}, which shares all
 * but what it changes with the map it started from.
 *
 * <p>Why not a copied tree: every input of a job runs the controller once, and a run used to copy
 * the whole tree to change one pod — O(pods) per event, which large jobs paid on every event.
 * Here the pods sit in sorted chunks of at most {@value #CHUNK}: a run copies the array of
 * chunk references once and each chunk it changes (never the chunks themselves in place, so the
 * map it started from stays as it was).
 */
final class FrozenPods extends AbstractMap<String, JobPod> implements SortedMap<String, JobPod> {

    /** The most pods in one chunk; a chunk that grows past it is split in two. */
    static final int CHUNK = 64;

    private static final FrozenPods EMPTY = new FrozenPods(new String[0][], new JobPod[0][], 0, new PodTally());

    private final String[][] keys;
    private final JobPod[][] values;
    private final int size;
    private final PodTally tally;

    private FrozenPods(String[][] keys, JobPod[][] values, int size, PodTally tally) {
        this.keys = keys;
        this.values = values;
        this.size = size;
        this.tally = tally;
    }

    static FrozenPods copyOf(Map<String, JobPod> pods) {
        if (pods instanceof FrozenPods f) {
            return f;
        }
        if (pods == null || pods.isEmpty()) {
            return EMPTY;
        }
        // Half-full chunks, so the next pods put in do not split one at once.
        List<Map.Entry<String, JobPod>> sorted = new ArrayList<>(new TreeMap<>(pods).entrySet());
        int per = CHUNK / 2;
        int n = (sorted.size() + per - 1) / per;
        String[][] keys = new String[n][];
        JobPod[][] values = new JobPod[n][];
        PodTally tally = new PodTally();
        for (int c = 0; c < n; c++) {
            int from = c * per;
            int to = Math.min(sorted.size(), from + per);
            keys[c] = new String[to - from];
            values[c] = new JobPod[to - from];
            for (int i = from; i < to; i++) {
                Map.Entry<String, JobPod> e = sorted.get(i);
                keys[c][i - from] = e.getKey();
                values[c][i - from] = e.getValue();
                tally.count(e.getKey(), e.getValue(), 1);
            }
        }
        return new FrozenPods(keys, values, sorted.size(), tally);
    }

    /**
     * Tells {@code changes} how {@code after} differs from {@code before}: each pod added or
     * changed, each name gone. Chunks a run did not touch are the same arrays in both and are
     * skipped whole, so the cost follows what changed, not the job's size.
     */
    static void diff(FrozenPods before, FrozenPods after, PodChanges changes) {
        int ca = 0;
        int ia = 0;
        int cb = 0;
        int ib = 0;
        while (ca < before.keys.length || cb < after.keys.length) {
            boolean bothLeft = ca < before.keys.length && cb < after.keys.length;
            if (bothLeft && ia == 0 && ib == 0 && before.values[ca] == after.values[cb]) {
                ca++;
                cb++;
                continue;
            }
            String ka = ca < before.keys.length ? before.keys[ca][ia] : null;
            String kb = cb < after.keys.length ? after.keys[cb][ib] : null;
            int cmp = ka == null ? 1 : kb == null ? -1 : ka.compareTo(kb);
            if (cmp < 0) {
                changes.removed(ka, before.values[ca][ia]);
            } else if (cmp > 0) {
                changes.put(kb, null, after.values[cb][ib]);
            } else if (!before.values[ca][ia].equals(after.values[cb][ib])) {
                changes.put(kb, before.values[ca][ia], after.values[cb][ib]);
            }
            if (cmp <= 0 && ++ia == before.keys[ca].length) {
                ca++;
                ia = 0;
            }
            if (cmp >= 0 && ++ib == after.keys[cb].length) {
                cb++;
                ib = 0;
            }
        }
    }

    /** A run's working copy, starting from these pods. */
    Builder builder() {
        return new Builder(this);
    }

    /** The index of the chunk {@code key} belongs in: the last whose first key is not after it (0 if none). */
    private static int chunkOf(String[][] keys, String key) {
        int lo = 0;
        int hi = keys.length - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (keys[mid][0].compareTo(key) <= 0) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    private static JobPod find(String[][] keys, JobPod[][] values, Object key) {
        if (keys.length == 0 || !(key instanceof String k)) {
            return null;
        }
        int c = chunkOf(keys, k);
        int i = Arrays.binarySearch(keys[c], k);
        return i < 0 ? null : values[c][i];
    }

    @Override
    public JobPod get(Object key) {
        return find(keys, values, key);
    }

    @Override
    public boolean containsKey(Object key) {
        return get(key) != null;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public boolean isEmpty() {
        return size == 0;
    }

    @Override
    public Set<Entry<String, JobPod>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public Iterator<Entry<String, JobPod>> iterator() {
                return new Iterator<>() {
                    private int c;
                    private int i;

                    @Override
                    public boolean hasNext() {
                        return c < keys.length;
                    }

                    @Override
                    public Entry<String, JobPod> next() {
                        if (!hasNext()) {
                            throw new NoSuchElementException();
                        }
                        Entry<String, JobPod> e = new SimpleImmutableEntry<>(keys[c][i], values[c][i]);
                        if (++i == keys[c].length) {
                            c++;
                            i = 0;
                        }
                        return e;
                    }
                };
            }

            @Override
            public int size() {
                return size;
            }
        };
    }

    @Override
    public void forEach(BiConsumer<? super String, ? super JobPod> action) {
        for (int c = 0; c < keys.length; c++) {
            for (int i = 0; i < keys[c].length; i++) {
                action.accept(keys[c][i], values[c][i]);
            }
        }
    }

    @Override
    public Comparator<? super String> comparator() {
        return null;
    }

    // Range views are snapshots: the map never changes.

    @Override
    public SortedMap<String, JobPod> subMap(String fromKey, String toKey) {
        return Collections.unmodifiableSortedMap(new TreeMap<>(this).subMap(fromKey, toKey));
    }

    @Override
    public SortedMap<String, JobPod> headMap(String toKey) {
        return Collections.unmodifiableSortedMap(new TreeMap<>(this).headMap(toKey));
    }

    @Override
    public SortedMap<String, JobPod> tailMap(String fromKey) {
        return Collections.unmodifiableSortedMap(new TreeMap<>(this).tailMap(fromKey));
    }

    @Override
    public String firstKey() {
        if (size == 0) {
            throw new NoSuchElementException();
        }
        return keys[0][0];
    }

    @Override
    public String lastKey() {
        if (size == 0) {
            throw new NoSuchElementException();
        }
        String[] last = keys[keys.length - 1];
        return last[last.length - 1];
    }

    /**
     * A controller run's pods: reads like a map, changes by {@link #put} and {@link #remove}, keeps
     * its {@link PodTally} current, and gives an immutable {@link FrozenPods} at the end of the run.
     */
    static final class Builder {

        private String[][] keys;
        private JobPod[][] values;
        private int size;
        /** Whether the chunk reference arrays are this builder's (copied once per run, then changed in place). */
        private boolean ownArrays;

        private PodTally tally;
        /**
         * Whether {@link #tally} is this builder's: it is shared with the map the run started from,
         * or the one it froze, until the run changes a count (a copy per pod event, not two).
         */
        private boolean ownTally;

        private Builder(FrozenPods from) {
            this.keys = from.keys;
            this.values = from.values;
            this.size = from.size;
            this.tally = from.tally;
        }

        JobPod get(String key) {
            return find(keys, values, key);
        }

        int size() {
            return size;
        }

        PodTally tally() {
            return tally;
        }

        /** The pods in name order, a snapshot (the run may change pods while it walks them). */
        List<JobPod> values() {
            List<JobPod> out = new ArrayList<>(size);
            for (JobPod[] chunk : values) {
                out.addAll(Arrays.asList(chunk));
            }
            return out;
        }

        /** How many pods have a name in {@code names} (the spec's: {@link SpecMemo#podNameSet}). */
        int inSpec(Set<String> names) {
            if (!tally.countsSpecNames(names)) {
                changedTally().countSpecNames(names, names());
            }
            return tally.inSpec();
        }

        /** The names of the pods, in order, as they are now. */
        private List<String> names() {
            List<String> out = new ArrayList<>(size);
            for (String[] chunk : keys) {
                out.addAll(Arrays.asList(chunk));
            }
            return out;
        }

        void put(String key, JobPod pod) {
            ownArrays();
            if (keys.length == 0) {
                keys = new String[][] {{key}};
                values = new JobPod[][] {{pod}};
                size = 1;
                changedTally().count(key, pod, 1);
                return;
            }
            int c = chunkOf(keys, key);
            int i = Arrays.binarySearch(keys[c], key);
            if (i >= 0) {
                changedTally().count(key, values[c][i], -1);
                JobPod[] v = values[c].clone();
                v[i] = pod;
                values[c] = v;
                changedTally().count(key, pod, 1);
                return;
            }
            int at = -i - 1;
            String[] k = insert(keys[c], at, key, new String[keys[c].length + 1]);
            JobPod[] v = insert(values[c], at, pod, new JobPod[values[c].length + 1]);
            if (k.length <= CHUNK) {
                keys[c] = k;
                values[c] = v;
            } else {
                int half = k.length / 2;
                keys = replace(keys, c, Arrays.copyOfRange(k, 0, half), Arrays.copyOfRange(k, half, k.length));
                values = replace(values, c, Arrays.copyOfRange(v, 0, half), Arrays.copyOfRange(v, half, v.length));
            }
            size++;
            changedTally().count(key, pod, 1);
        }

        JobPod remove(String key) {
            if (keys.length == 0) {
                return null;
            }
            int c = chunkOf(keys, key);
            int i = Arrays.binarySearch(keys[c], key);
            if (i < 0) {
                return null;
            }
            ownArrays();
            JobPod old = values[c][i];
            if (keys[c].length == 1) {
                keys = without(keys, c, new String[keys.length - 1][]);
                values = without(values, c, new JobPod[values.length - 1][]);
            } else {
                keys[c] = without(keys[c], i, new String[keys[c].length - 1]);
                values[c] = without(values[c], i, new JobPod[values[c].length - 1]);
            }
            size--;
            changedTally().count(key, old, -1);
            return old;
        }

        void clear() {
            keys = new String[0][];
            values = new JobPod[0][];
            size = 0;
            ownArrays = true;
            tally = new PodTally();
            ownTally = true;
        }

        /** The pods as they are now; the builder may go on changing its own copy afterwards. */
        FrozenPods freeze() {
            if (size == 0) {
                return EMPTY;
            }
            ownArrays = false;
            ownTally = false;
            return new FrozenPods(keys, values, size, tally);
        }

        /** The tally, made this builder's own first: the maps it shares it with are immutable. */
        private PodTally changedTally() {
            if (!ownTally) {
                tally = tally.copy();
                ownTally = true;
            }
            return tally;
        }

        private void ownArrays() {
            if (!ownArrays) {
                keys = keys.clone();
                values = values.clone();
                ownArrays = true;
            }
        }

        private static <T> T[] insert(T[] from, int at, T item, T[] into) {
            System.arraycopy(from, 0, into, 0, at);
            into[at] = item;
            System.arraycopy(from, at, into, at + 1, from.length - at);
            return into;
        }

        private static <T> T[] without(T[] from, int at, T[] into) {
            System.arraycopy(from, 0, into, 0, at);
            System.arraycopy(from, at + 1, into, at, from.length - at - 1);
            return into;
        }

        private static <T> T[][] replace(T[][] chunks, int c, T[] first, T[] second) {
            T[][] out = Arrays.copyOf(chunks, chunks.length + 1);
            out[c] = first;
            out[c + 1] = second;
            System.arraycopy(chunks, c + 1, out, c + 2, chunks.length - c - 1);
            return out;
        }
    }
}
