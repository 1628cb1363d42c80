package io.lahar.bridge.reconcile;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.lahar.bridge.mapping.Pods;
import io.lahar.bridge.mapping.VolcanoKinds;
import io.lahar.core.util.LruMap;
import io.lahar.schema.PodIntent;
import java.util.Map;
import java.util.Optional;

/**
 * Finds the Volcano Job CR a job's objects belong to. Jobs submitted over Kafka have none until
 * their mirror is made, and a cluster without Volcano's CRDs answers 404 for the kind: both mean
 * "no owner reference". An owner found is kept for the job (by namespace, name and the engine's
 * UID of the job, so a job of the same name submitted again looks again), and its other pods are
 * created without asking; "none" is never kept, since the mirror may come any moment.
 */
final class JobOwners {

    /** Jobs whose owner is kept: far more than run at once. */
    private static final int LIMIT = 10_000;

    private final KubernetesClient client;
    private final Retry retry;
    private final Map<String, OwnerReference> found = new LruMap<>(LIMIT);

    JobOwners(KubernetesClient client, Retry retry) {
        this.client = client;
        this.retry = retry;
    }

    Optional<OwnerReference> owner(PodIntent intent) {
        String key = intent.getNamespace() + "/" + intent.getJob() + "/" + intent.getJobUid();
        synchronized (found) {
            OwnerReference known = found.get(key);
            if (known != null) {
                return Optional.of(known);
            }
        }
        Optional<OwnerReference> owner = owner(intent.getNamespace(), intent.getJob());
        owner.ifPresent(o -> {
            synchronized (found) {
                found.put(key, o);
            }
        });
        return owner;
    }

    /** Asks the cluster, every time (a pod group's records are few). */
    Optional<OwnerReference> owner(String namespace, String job) {
        try {
            GenericKubernetesResource cr = retry.call(() -> client.genericKubernetesResources(VolcanoKinds.JOBS)
                    .inNamespace(namespace)
                    .withName(job)
                    .get());
            // A CR on its way out would garbage-collect what we create at once.
            if (cr == null || cr.getMetadata().getDeletionTimestamp() != null) {
                return Optional.empty();
            }
            return Optional.of(Pods.jobOwner(job, cr.getMetadata().getUid()));
        } catch (KubernetesClientException e) {
            if (Retry.isNotFound(e)) {
                return Optional.empty();
            }
            throw e;
        }
    }
}
