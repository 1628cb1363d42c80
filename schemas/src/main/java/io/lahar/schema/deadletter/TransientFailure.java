package io.lahar.schema.deadletter;

/**
 * A failure that is not the record's fault: a service it needs (the schema registry, the broker)
 * did not answer in time. The record is tried again later, never dead-lettered.
 */
public final class TransientFailure extends RuntimeException {

    public TransientFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
