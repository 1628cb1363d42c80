package io.lahar.testkit;

/**
 * A child failed to start because another process took one of its ports between the moment it
 * was found free and the moment the child bound it; a start on free ports then tries new ones.
 */
final class PortTakenException extends InfraException {

    PortTakenException(String message) {
        super(message);
    }
}
