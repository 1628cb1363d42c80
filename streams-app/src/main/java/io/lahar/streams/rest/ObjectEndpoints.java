package io.lahar.streams.rest;

import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * The endpoints every kind of the API has under its collection ({@code /api/v1/jobs},
 * {@code jobflows}, {@code jobtemplates}, {@code cronjobs}), declared once so that paths, media
 * types and parameter names cannot drift between kinds: a resource implements these methods
 * without annotations of its own and inherits them (JAX-RS annotation inheritance).
 */
interface ObjectEndpoints {

    /** A client may choose the command's request id, so that repeating a write (after a 504, say) applies it once. */
    String REQUEST_ID = "X-Lahar-Request-Id";

    /** The object with its status: 200, 404 when it does not exist, 503 while its store moves. */
    @GET
    @Path("/{namespace}/{name}")
    Response get(@PathParam("namespace") String namespace, @PathParam("name") String name);

    /**
     * Admits a manifest (YAML or JSON): 201 with the admitted object, 422 with every reason, 413
     * when too large; {@code fieldValidation} (Ignore, Warn, Strict) as kubectl's.
     */
    @POST
    @Consumes({
        "application/yaml",
        "application/x-yaml",
        "text/yaml",
        MediaType.APPLICATION_JSON,
        MediaType.TEXT_PLAIN,
        MediaType.WILDCARD
    })
    Response submit(
            String body,
            @HeaderParam(REQUEST_ID) String requestId,
            @QueryParam("fieldValidation") String fieldValidation);

    /** Deletes the object; {@code message} becomes the reason its transitions carry. */
    @DELETE
    @Path("/{namespace}/{name}")
    Response delete(
            @PathParam("namespace") String namespace,
            @PathParam("name") String name,
            @QueryParam("message") String message,
            @HeaderParam(REQUEST_ID) String requestId);
}
