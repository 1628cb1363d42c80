package io.lahar.schema.deadletter;

import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.net.http.HttpTimeoutException;
import java.nio.channels.ClosedChannelException;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.common.errors.RetriableException;

/**
 * Tells an outage from poison. Transient: anywhere in the cause chain a {@link TransientFailure}, a
 * connection that could not be opened, was lost or timed out, or an error Kafka calls retriable —
 * the record is kept and tried again after a pause. Anything else is the record's own: it can never
 * be processed and goes to the dead-letter topic with its reason.
 */
public final class Failures {

    /**
     * Vert.x's answer to a request whose connection closed under it (the registry's client and the
     * k8s-bridge's Kubernetes client both run on Vert.x): by name, so that this module does not
     * depend on Vert.x for one class.
     */
    private static final String CONNECTION_CLOSED = "io.vertx.core.http.HttpClosedException";

    private Failures() {}

    public static boolean isTransient(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof TransientFailure
                    || t instanceof SocketException
                    || t instanceof SocketTimeoutException
                    || t instanceof UnknownHostException
                    || t instanceof HttpTimeoutException
                    || t instanceof TimeoutException
                    || t instanceof RetriableException
                    || t instanceof ClosedChannelException
                    || CONNECTION_CLOSED.equals(t.getClass().getName())) {
                return true;
            }
        }
        return false;
    }
}
