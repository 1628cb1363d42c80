package io.lahar.testkit;

/** The broker or the registry could not be started, reached or stopped; the message says why. */
public class InfraException extends RuntimeException {

    public InfraException(String message) {
        super(message);
    }

    public InfraException(String message, Throwable cause) {
        super(message, cause);
    }
}
