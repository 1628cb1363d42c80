package io.lahar.core.admission;

/**
 * One reason an object is rejected: the field path (e.g. {@code spec.tasks[1].name}) and why.
 * Both are capped in length: they often quote what the user wrote, and they travel in records
 * (command results, a job's remembered verdicts) that must stay small whatever the input.
 */
public record Violation(String path, String message) {

    /** The most characters of a path or a message kept; the rest is cut, and the cut said. */
    public static final int MAX_LENGTH = 1024;

    public Violation {
        path = cap(path);
        message = cap(message);
    }

    private static String cap(String s) {
        if (s == null || s.length() <= MAX_LENGTH) {
            return s;
        }
        return s.substring(0, MAX_LENGTH) + "... (" + (s.length() - MAX_LENGTH) + " more characters)";
    }

    @Override
    public String toString() {
        return path + ": " + message;
    }
}
