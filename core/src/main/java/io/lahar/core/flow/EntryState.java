package io.lahar.core.flow;

/**
 * Where one flow entry stands. {@code Waiting} is Volcano's condition for a job whose
 * dependencies are not met yet; {@code Backoff} (a failed job waiting to be re-created) and
 * {@code Skipped} (a {@code when} that will never hold) are Lahar's.
 */
public enum EntryState {
    Waiting,
    Created,
    Backoff,
    Skipped
}
