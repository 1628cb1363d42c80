package io.lahar.core.job;

import io.lahar.core.api.Job;
import io.lahar.core.api.JobSpec;
import io.lahar.core.api.PodGroup;
import io.lahar.core.api.TaskSpec;
import io.lahar.core.util.LruMap;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What the controller derives from a job's spec on every input, remembered per job while its
 * spec is the same object and its name, namespace and uid are equal — everything the derivations
 * read: the pod group ({@link PodGroups#build}) and the names of the spec's pods (as an array and
 * as a set, whose identity tells a {@link PodTally} its count of pods in the spec still holds).
 *
 * <p>Why: the controller derives the pod group on every input to compare it with the one last
 * sent (Volcano's createOrUpdatePodGroup), which parses every container's resource quantities,
 * and syncJob looks up every replica's pod by its name {@code <job>-<task>-<index>}; a pod event
 * never changes the spec, so both were repeated work (and string building) on the hottest path.
 * A caller that keeps job objects between inputs (the streams-app's entry cache, a simulation)
 * hits; one that decodes the job afresh misses and derives as before. The results are the ones
 * the derivations give (equal, not look-alikes): the outcome of {@link JobController#apply} is
 * unchanged, byte for byte.
 *
 * <p>Bounded (least recently used first out) and synchronized: a controller may be shared.
 */
final class SpecMemo {

    /**
     * For callers that do not say how many jobs they keep as objects. A memo larger than what its
     * caller keeps only keeps specs alive: a job decoded afresh brings a new spec object, which
     * misses here by identity, so a memo sized past its caller's cache only weighs on the heap (the
     * streams-app gives its cache's size).
     */
    static final int DEFAULT_CAPACITY = 1024;

    private record Key(String namespace, String name) {}

    /** One job's derivations, each made when first asked for. */
    private static final class Derived {
        final Key key;
        final JobSpec spec;
        final String uid;
        PodGroup podGroup;
        String[][] podNames;
        Set<String> podNameSet;

        Derived(Key key, JobSpec spec, String uid) {
            this.key = key;
            this.spec = spec;
            this.uid = uid;
        }

        /** Made from {@code job}'s spec object, name, namespace and uid: what every derivation reads. */
        boolean of(Job job, String uid) {
            return spec == job.spec()
                    && Objects.equals(this.uid, uid)
                    && Objects.equals(key.name(), job.name())
                    && Objects.equals(key.namespace(), job.namespace());
        }
    }

    private final Map<Key, Derived> derived;
    /**
     * The derivations last asked for, checked before the map: the controller asks for two or three
     * of the same job's on one input, and each map lookup builds a key and re-orders the map.
     */
    private Derived last;

    SpecMemo(int capacity) {
        this.derived = new LruMap<>(capacity);
    }

    /** What {@code PodGroups.build(job)} gives, computed again only when its inputs changed. */
    synchronized PodGroup podGroup(Job job) {
        Derived d = of(job);
        if (d.podGroup == null) {
            d.podGroup = PodGroups.build(job);
        }
        return d.podGroup;
    }

    /**
     * The spec's pod names, {@code [task][index]}, in the spec's task order: what
     * {@code JobPods.podName(job, task, index)} gives for each replica. Not to be modified.
     */
    synchronized String[][] podNames(Job job) {
        Derived d = of(job);
        if (d.podNames == null) {
            List<TaskSpec> tasks = job.spec().tasksOrEmpty();
            String[][] names = new String[tasks.size()][];
            for (int t = 0; t < names.length; t++) {
                TaskSpec task = tasks.get(t);
                names[t] = new String[task.replicasOrZero()];
                for (int i = 0; i < names[t].length; i++) {
                    names[t][i] = JobPods.podName(job.name(), task.name(), i);
                }
            }
            d.podNames = names;
        }
        return d.podNames;
    }

    /** The names of {@link #podNames} as a set, the same object while the spec is: not to be modified. */
    synchronized Set<String> podNameSet(Job job) {
        Derived d = of(job);
        if (d.podNameSet == null) {
            Set<String> set = new HashSet<>();
            for (String[] task : podNames(job)) {
                set.addAll(Arrays.asList(task));
            }
            d.podNameSet = set;
        }
        return d.podNameSet;
    }

    private Derived of(Job job) {
        String uid = job.metadata() == null ? null : job.metadata().uid();
        if (last != null && last.of(job, uid)) {
            return last;
        }
        Key key = new Key(job.namespace(), job.name());
        Derived d = derived.get(key);
        if (d == null || !d.of(job, uid)) {
            d = new Derived(key, job.spec(), uid);
            derived.put(key, d);
        }
        last = d;
        return d;
    }

    synchronized int size() {
        return derived.size();
    }
}
