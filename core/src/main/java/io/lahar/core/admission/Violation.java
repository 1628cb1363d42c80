package io.lahar.core.admission;

/** One reason an object is rejected: the field path (e.g. {@code spec.tasks[1].name}) and why. */
public record Violation(String path, String message) {

    @Override
    public String toString() {
        return path + ": " + message;
    }
}
