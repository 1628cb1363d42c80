package io.lahar.console.feed;

import io.vertx.core.http.HttpClosedException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.http.HttpTimeoutException;
import java.util.concurrent.TimeoutException;

/**
 * Whether a decoding failure is the registry being away (retry the record later) rather than a
 * record no reader can decode (show it as undecodable).
 */
final class Transients {

    private Transients() {}

    static boolean isTransient(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof HttpClosedException
                    || cause instanceof SocketException
                    || cause instanceof SocketTimeoutException
                    || cause instanceof HttpTimeoutException
                    || cause instanceof TimeoutException) {
                return true;
            }
            if (cause.getCause() == cause) {
                break;
            }
        }
        return false;
    }
}
