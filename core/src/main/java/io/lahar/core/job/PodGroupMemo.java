package io.lahar.core.job;

import io.lahar.core.api.Job;
import io.lahar.core.api.JobSpec;
import io.lahar.core.api.PodGroup;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * {@link PodGroups#build} remembered per job while its spec is the same object and its name,
 * namespace and uid are equal — everything {@code build} reads.
 *
 * <p>Why: the controller derives the pod group on every input to compare it with the one last
 * sent (Volcano's createOrUpdatePodGroup), which parses every container's resource quantities;
 * a pod event never changes the spec, so this was repeated work on the hottest path. A caller that
 * keeps job objects between inputs (the streams-app's entry cache, a simulation) hits; one that
 * decodes the job afresh misses and builds as before. The result is the one {@code build} gives
 * (equal, not a look-alike): the outcome of {@link JobController#apply} is unchanged, byte for byte.
 *
 * <p>Bounded (least recently used first out) and synchronized: a controller may be shared.
 */
final class PodGroupMemo {

    static final int DEFAULT_CAPACITY = 4096;

    private record Built(JobSpec spec, String namespace, String name, String uid, PodGroup podGroup) {
    }

    private final Map<String, Built> built;

    PodGroupMemo(int capacity) {
        this.built = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Built> eldest) {
                return size() > capacity;
            }
        };
    }

    /** What {@code PodGroups.build(job)} gives, computed again only when its inputs changed. */
    synchronized PodGroup build(Job job) {
        String uid = job.metadata() == null ? null : job.metadata().uid();
        String key = job.namespace() + "/" + job.name();
        Built b = built.get(key);
        if (b != null && b.spec() == job.spec() && Objects.equals(b.namespace(), job.namespace())
                && Objects.equals(b.name(), job.name()) && Objects.equals(b.uid(), uid)) {
            return b.podGroup();
        }
        PodGroup pg = PodGroups.build(job);
        built.put(key, new Built(job.spec(), job.namespace(), job.name(), uid, pg));
        return pg;
    }

    synchronized int size() {
        return built.size();
    }
}
