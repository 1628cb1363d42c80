package io.lahar.streams.rest;

import io.lahar.core.api.ManifestException;
import io.lahar.core.api.Manifests;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.Optional;

/**
 * The Kubernetes API server's {@code fieldValidation} of a write, for the fields a manifest holds
 * that its kind does not have: {@code Warn} (the default) admits the object without them and says
 * so in {@code Warning: 299} headers, as the API server does; {@code Strict} refuses it, 422 with a
 * violation per field, before anything is sent (kubectl's default); {@code Ignore} says nothing.
 * docs/decisions/041-yaml-and-unknown-fields.md says why.
 */
enum FieldValidation {
    Ignore,
    Warn,
    Strict;

    /** The query parameter's value, the default when absent; empty when it is none of the three. */
    static Optional<FieldValidation> of(String value) {
        if (value == null || value.isEmpty()) {
            return Optional.of(Warn);
        }
        for (FieldValidation v : values()) {
            if (v.name().equals(value)) {
                return Optional.of(v);
            }
        }
        return Optional.empty();
    }

    static Response invalid(String value) {
        return Response.status(400)
                .entity(new ApiError(
                        "bad query",
                        List.of(new ApiError.Reason(
                                "fieldValidation", "must be Ignore, Warn or Strict, was \"" + value + "\""))))
                .build();
    }

    /** Null when the manifest may be sent; under Strict, 422 with each unknown field. */
    Response refuse(String manifestJson) {
        if (this != Strict) {
            return null;
        }
        List<String> unknown;
        try {
            unknown = Manifests.readWithWarnings(manifestJson).unknownFields();
        } catch (ManifestException e) {
            // Not readable as its kind: admission answers that, with its own reasons.
            return null;
        }
        return unknown.isEmpty()
                ? null
                : Response.status(422)
                        .entity(new ApiError(
                                "strict decoding error",
                                unknown.stream()
                                        .map(f -> new ApiError.Reason(f, "unknown field (fieldValidation=Strict)"))
                                        .toList()))
                        .build();
    }

    /** The answer with each of the command's warnings as a {@code Warning: 299 - "..."} header, unless Ignore. */
    Response withWarnings(Response response, List<String> warnings) {
        if (this == Ignore || warnings == null || warnings.isEmpty()) {
            return response;
        }
        Response.ResponseBuilder out = Response.fromResponse(response);
        for (String w : warnings) {
            out.header("Warning", "299 - \"" + w.replace("\\", "\\\\").replace("\"", "\\\"") + "\"");
        }
        return out.build();
    }
}
