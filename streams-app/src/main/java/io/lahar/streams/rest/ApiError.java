package io.lahar.streams.rest;

import java.util.List;

/** The body of every error answer: what went wrong and, for a rejected command, every reason. */
public record ApiError(String error, List<Reason> violations) {

    /** One reason, with the field path it concerns ({@code ""} for the whole request). */
    public record Reason(String path, String message) {}

    public ApiError {
        violations = violations == null ? List.of() : List.copyOf(violations);
    }

    static ApiError of(String error) {
        return new ApiError(error, List.of());
    }
}
