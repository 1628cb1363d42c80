package io.lahar.bridge.reconcile;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.lahar.bridge.mapping.Pods;
import io.lahar.bridge.mapping.VolcanoKinds;
import java.util.Optional;

/**
 * Finds the Volcano Job CR a job's objects belong to. Jobs submitted over Kafka have none, and a
 * cluster without Volcano's CRDs answers 404 for the kind: both mean "no owner reference".
 */
final class JobOwners {

    private final KubernetesClient client;
    private final Retry retry;

    JobOwners(KubernetesClient client, Retry retry) {
        this.client = client;
        this.retry = retry;
    }

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
