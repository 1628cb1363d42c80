package io.lahar.streams.rest;

import static io.lahar.streams.rest.Answers.blank;
import static io.lahar.streams.rest.Answers.enc;

import com.fasterxml.jackson.core.type.TypeReference;
import io.lahar.core.api.JobTemplate;
import io.lahar.core.api.Manifests;
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
 * The JobTemplate API (flow.volcano.sh/v1alpha1 JobTemplate; submitting an existing one replaces
 * it). Reads answer from the flow engine's {@code job-templates} store (this instance's part, or the owner's over HTTP); writes are FlowCommands
 * on {@code lahar.flow-commands} answered on {@code lahar.command-results}.
 */
@Path("/api/v1/jobtemplates")
@Produces(MediaType.APPLICATION_JSON)
public class JobTemplateResource {

    @Inject
    FlowQueries queries;

    @Inject
    FlowRequests requests;

    @Inject
    StoreQueries stores;

    @GET
    public Response list(
            @QueryParam("namespace") String namespace, @QueryParam("local") @DefaultValue("false") boolean localOnly) {
        return stores.list(
                StoreQueries.TEMPLATES,
                "/api/v1/jobtemplates",
                localOnly,
                () -> queries.templates().stream()
                        .map(e -> FlowRows.TemplateRow.of(e.template()))
                        .toList(),
                new TypeReference<List<FlowRows.TemplateRow>>() {},
                r -> blank(namespace) || namespace.equals(r.namespace()),
                Comparator.comparing(FlowRows.TemplateRow::namespace).thenComparing(FlowRows.TemplateRow::name));
    }

    @GET
    @Path("/{namespace}/{name}")
    public Response get(@PathParam("namespace") String namespace, @PathParam("name") String name) {
        String key = Topics.jobKey(namespace, name);
        return stores.get(
                StoreQueries.TEMPLATES,
                key,
                "/api/v1/jobtemplates/" + enc(namespace) + "/" + enc(name),
                "jobtemplate",
                () -> queries.template(key)
                        .map(e -> Response.ok(Manifests.toTree(e.template())).build()));
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
                FlowKind.JobTemplate,
                JobTemplate.API_VERSION,
                requestId,
                fieldValidation,
                (valid, result) -> Response.created(
                                URI.create("/api/v1/jobtemplates/" + enc(valid.namespace()) + "/" + enc(valid.name())))
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
                FlowRequests.delete(requestId, FlowKind.JobTemplate, namespace, name, message), FlowRequests::deleted);
    }
}
