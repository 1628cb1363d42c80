package io.lahar.bridge.reconcile;

import io.fabric8.kubernetes.api.model.Pod;
import io.lahar.bridge.mapping.Pods;
import io.lahar.core.util.LruMap;
import java.util.Map;
import java.util.Optional;

/**
 * The pods this bridge knows to exist, by {@code namespace/name}: those it created and those its
 * pod watch lists or sees added (every pod it manages), with the UID the cluster gave each and its
 * job version. A bind of that version goes straight to the Binding subresource with the UID as its
 * precondition, without reading the pod first: the cluster refuses it (409) if the name now
 * belongs to another pod, or the pod is bound or going, and only then is the pod read. A bind of a
 * pod not known waits without a call until the pod is created or seen. Bounded, the least recently
 * used first out: a forgotten pod's bind is tried by the loop's periodic sweep of waiting binds.
 */
public final class CreatedPods {

    private static final int LIMIT = 100_000;

    /**
     * @param uid the pod's UID in the cluster; @param jobVersion the version of the job it was made
     * for; @param resourceVersion the cluster's version of what was seen (0 if not a number)
     */
    public record Created(String uid, int jobVersion, long resourceVersion) {

        /** @param resourceVersion as the cluster wrote it, 0 if it is not a number */
        static Created of(String uid, int jobVersion, String resourceVersion) {
            long version;
            try {
                version = Long.parseLong(resourceVersion);
            } catch (NumberFormatException e) {
                version = 0;
            }
            return new Created(uid, jobVersion, version);
        }
    }

    private final Map<String, Created> pods = new LruMap<>(LIMIT);

    /** This bridge created (or found) {@code pod}: it is what the name holds now. */
    synchronized void created(String key, Pod pod) {
        if (pod != null && pod.getMetadata() != null && pod.getMetadata().getUid() != null) {
            pods.put(key, of(pod));
        }
    }

    /** As {@link #created(String, Pod)}, from what was read of the create's answer ({@link PodWrites}). */
    synchronized void created(String key, Created pod) {
        if (pod.uid() != null) {
            pods.put(key, pod);
        }
    }

    synchronized Optional<Created> get(String key) {
        return Optional.ofNullable(pods.get(key));
    }

    synchronized void forget(String key) {
        pods.remove(key);
    }

    /**
     * The pod watch saw {@code pod} added or changed ({@code gone}: deleted). The watch's pods have
     * only the fields that it and pod events read ({@code ManagedPods}): a field read here must be
     * read there too.
     */
    public void seen(Pod pod, boolean gone) {
        String key = pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
        synchronized (this) {
            Created known = pods.get(key);
            if (!gone) {
                // A watch event older than what the bridge created since (the previous pod's, late)
                // must not stand for the name: a delete trusts the version kept here.
                Created seen = of(pod);
                if (seen.uid() != null && (known == null || seen.resourceVersion() > known.resourceVersion())) {
                    pods.put(key, seen);
                }
            } else if (known != null && known.uid().equals(pod.getMetadata().getUid())) {
                pods.remove(key);
            }
        }
    }

    private static Created of(Pod pod) {
        return Created.of(
                pod.getMetadata().getUid(),
                Pods.jobVersion(pod),
                pod.getMetadata().getResourceVersion());
    }
}
