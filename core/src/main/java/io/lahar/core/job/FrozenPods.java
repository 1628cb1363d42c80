package io.lahar.core.job;

import java.util.AbstractMap;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.BiConsumer;

/**
 * A job's pods as {@link JobInfo} holds them: sorted by name and unmodifiable (reads go to the
 * tree, anything that could write through to it to an unmodifiable view). A controller run
 * hands its working copy over ({@link #adopt}) instead of having it copied once more: the run
 * ends there, so nothing else holds the map. Every other map is copied.
 */
final class FrozenPods extends AbstractMap<String, JobPod> implements SortedMap<String, JobPod> {

    private static final FrozenPods EMPTY = new FrozenPods(new TreeMap<>());

    private final TreeMap<String, JobPod> owned;
    private final SortedMap<String, JobPod> view;

    private FrozenPods(TreeMap<String, JobPod> owned) {
        this.owned = owned;
        this.view = Collections.unmodifiableSortedMap(owned);
    }

    static FrozenPods copyOf(Map<String, JobPod> pods) {
        if (pods instanceof FrozenPods f) {
            return f;
        }
        return pods == null || pods.isEmpty() ? EMPTY : new FrozenPods(new TreeMap<>(pods));
    }

    /** Takes {@code pods} as it is; the caller must not touch it afterwards. */
    static FrozenPods adopt(TreeMap<String, JobPod> pods) {
        return pods.isEmpty() ? EMPTY : new FrozenPods(pods);
    }

    /** A copy to change: a controller run's working copy, built from the tree itself (no entry wrappers). */
    TreeMap<String, JobPod> mutableCopy() {
        return new TreeMap<>(owned);
    }

    @Override
    public JobPod get(Object key) {
        return owned.get(key);
    }

    @Override
    public boolean containsKey(Object key) {
        return owned.containsKey(key);
    }

    @Override
    public int size() {
        return owned.size();
    }

    @Override
    public boolean isEmpty() {
        return owned.isEmpty();
    }

    @Override
    public Set<Entry<String, JobPod>> entrySet() {
        return view.entrySet();
    }

    @Override
    public Set<String> keySet() {
        return view.keySet();
    }

    @Override
    public Collection<JobPod> values() {
        return view.values();
    }

    @Override
    public void forEach(BiConsumer<? super String, ? super JobPod> action) {
        owned.forEach(action);
    }

    @Override
    public Comparator<? super String> comparator() {
        return owned.comparator();
    }

    @Override
    public SortedMap<String, JobPod> subMap(String fromKey, String toKey) {
        return view.subMap(fromKey, toKey);
    }

    @Override
    public SortedMap<String, JobPod> headMap(String toKey) {
        return view.headMap(toKey);
    }

    @Override
    public SortedMap<String, JobPod> tailMap(String fromKey) {
        return view.tailMap(fromKey);
    }

    @Override
    public String firstKey() {
        return owned.firstKey();
    }

    @Override
    public String lastKey() {
        return owned.lastKey();
    }
}
