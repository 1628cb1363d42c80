package io.lahar.core.scheduling.api;

/** Something wrong with an input, named by its field path ({@code jobs[2].tasks[0].node}). */
public record Problem(String path, String message) {
    @Override
    public String toString() {
        return path + ": " + message;
    }
}
