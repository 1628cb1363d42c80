package io.lahar.streams.rest;

import static io.lahar.streams.rest.Answers.blank;
import static io.lahar.streams.rest.Answers.enc;

import com.fasterxml.jackson.core.type.TypeReference;
import io.lahar.core.api.JobFlow;
import io.lahar.core.api.Manifests;
import io.lahar.core.flow.FlowInfo;
import io.lahar.schema.FlowKind;
import io.lahar.schema.Topics;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.util.Comparator;
import java.util.List;

/**
 * The JobFlow API (flow.volcano.sh/v1alpha1 JobFlow). Reads answer from the flow engine's
 * {@code flows} store (this instance's part, or the owner's over HTTP); writes are FlowCommands
 * on {@code lahar.flow-commands} answered on {@code lahar.command-results}.
 */
@Path("/api/v1/jobflows")
@Produces(MediaType.APPLICATION_JSON)
public class JobFlowResource {

    @Inject
    FlowQueries queries;

    @Inject
    FlowRequests requests;

    @Inject
    StoreQueries stores;

    @GET
    public Response list(
            @QueryParam("namespace") String namespace,
            @QueryParam("phase") String phase,
            @QueryParam("local") @DefaultValue("false") boolean localOnly) {
        return stores.list(
                StoreQueries.FLOWS,
                "/api/v1/jobflows",
                localOnly,
                () -> queries.flows().stream()
                        .map(e -> FlowRows.FlowRow.of(e.info()))
                        .toList(),
                new TypeReference<List<FlowRows.FlowRow>>() {},
                r -> (blank(namespace) || namespace.equals(r.namespace()))
                        && (blank(phase) || phase.equalsIgnoreCase(r.phase())),
                Comparator.comparing(FlowRows.FlowRow::namespace).thenComparing(FlowRows.FlowRow::name));
    }

    @GET
    @Path("/{namespace}/{name}")
    public Response get(@PathParam("namespace") String namespace, @PathParam("name") String name) {
        String key = Topics.jobKey(namespace, name);
        return stores.get(
                StoreQueries.FLOWS,
                key,
                "/api/v1/jobflows/" + enc(namespace) + "/" + enc(name),
                "jobflow",
                () -> queries.flow(key).map(e -> {
                    FlowInfo info = e.info();
                    return Response.ok(Manifests.toTree(info.flow().withStatus(info.status())))
                            .build();
                }));
    }

    @POST
    @Consumes({
        "application/yaml",
        "application/x-yaml",
        "text/yaml",
        MediaType.APPLICATION_JSON,
        MediaType.TEXT_PLAIN,
        MediaType.WILDCARD
    })
    public Response submit(
            String body,
            @HeaderParam(JobResource.REQUEST_ID) String requestId,
            @QueryParam("fieldValidation") String fieldValidation) {
        return requests.submit(
                body,
                FlowKind.JobFlow,
                JobFlow.API_VERSION,
                requestId,
                fieldValidation,
                (valid, result) -> Response.created(
                                URI.create("/api/v1/jobflows/" + enc(valid.namespace()) + "/" + enc(valid.name())))
                        .entity(Answers.readJson(result.getManifest()))
                        .build());
    }

    @DELETE
    @Path("/{namespace}/{name}")
    public Response delete(
            @PathParam("namespace") String namespace,
            @PathParam("name") String name,
            @QueryParam("message") String message,
            @HeaderParam(JobResource.REQUEST_ID) String requestId) {
        return requests.answer(
                FlowRequests.delete(requestId, FlowKind.JobFlow, namespace, name, message), FlowRequests::deleted);
    }
}
