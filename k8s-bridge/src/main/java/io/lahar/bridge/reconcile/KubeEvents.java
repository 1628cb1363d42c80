package io.lahar.bridge.reconcile;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

/**
 * Events the bridge writes on the cluster's objects. Each Event's name is derived from what it
 * reports, so a record read again (after a restart, a rebalance, a retry) finds its Event there
 * already: that conflict means "written", not a failure.
 */
final class KubeEvents {

    private KubeEvents() {}

    /** @return whether the Event was created now (false: it was there already) */
    static boolean createOnce(KubernetesClient client, Retry retry, Event event) {
        try {
            retry.call(() -> client.v1()
                    .events()
                    .inNamespace(event.getMetadata().getNamespace())
                    .resource(event)
                    .create());
            return true;
        } catch (KubernetesClientException e) {
            if (Retry.isConflict(e)) {
                return false;
            }
            throw e;
        }
    }
}
