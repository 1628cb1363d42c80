package io.lahar.bridge.kafka;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.lahar.bridge.reconcile.Retry;

import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.net.http.HttpTimeoutException;
import java.util.concurrent.TimeoutException;

/**
 * Tells a failure that will pass (the cluster or the registry unreachable, throttled, failing)
 * from one that will not (a record that does not decode, an object the cluster refuses): the
 * first is retried later, the second goes to the dead letters.
 */
final class Transients {

    private Transients() {
    }

    static boolean isTransient(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof KubernetesClientException k && Retry.isTransient(k)) {
                return true;
            }
            if (t instanceof ConnectException || t instanceof SocketTimeoutException || t instanceof HttpTimeoutException
                    || t instanceof UnknownHostException || t instanceof TimeoutException) {
                return true;
            }
        }
        return false;
    }
}
