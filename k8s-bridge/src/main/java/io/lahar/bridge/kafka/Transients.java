package io.lahar.bridge.kafka;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.lahar.bridge.reconcile.Retry;
import io.lahar.schema.deadletter.Failures;

/**
 * Tells a failure that will pass (the cluster or the registry unreachable, throttled, failing)
 * from one that will not (a record that does not decode, an object the cluster refuses): the
 * first is retried later, the second goes to the dead letters. The registry's and the broker's are
 * every service's ({@link Failures}); the cluster's are the bridge's own.
 */
final class Transients {

    private Transients() {}

    static boolean isTransient(Throwable error) {
        if (Failures.isTransient(error)) {
            return true;
        }
        for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof KubernetesClientException k && Retry.isTransient(k)) {
                return true;
            }
        }
        return false;
    }
}
