package io.lahar.streams.rest;

import com.fasterxml.jackson.core.type.TypeReference;
import io.lahar.core.api.JobTemplate;
import io.lahar.core.api.Manifests;
import io.lahar.schema.FlowKind;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;

/**
 * The JobTemplate API (flow.volcano.sh/v1alpha1 JobTemplate; submitting an existing one replaces
 * it). Reads answer from the flow engine's {@code job-templates} store (this instance's part, or the owner's over HTTP); writes are FlowCommands
 * on {@code lahar.flow-commands} answered on {@code lahar.command-results}.
 */
@Path(JobTemplateResource.COLLECTION)
@Produces(MediaType.APPLICATION_JSON)
public class JobTemplateResource extends FlowObjectResource {

    static final String COLLECTION = "/api/v1/jobtemplates";

    public JobTemplateResource() {
        super(FlowKind.JobTemplate, JobTemplate.API_VERSION, COLLECTION);
    }

    @GET
    public Response list(
            @QueryParam("namespace") String namespace, @QueryParam("local") @DefaultValue("false") boolean localOnly) {
        return stores.list(
                StoreQueries.TEMPLATES,
                COLLECTION,
                localOnly,
                () -> queries.templates().stream()
                        .map(e -> FlowRows.TemplateRow.of(e.template()))
                        .toList(),
                new TypeReference<List<FlowRows.TemplateRow>>() {},
                ListedObject.inNamespace(namespace),
                ListedObject.order());
    }

    @Override
    public Response get(String namespace, String name) {
        ObjectAddress at = new ObjectAddress(COLLECTION, namespace, name);
        return stores.get(
                StoreQueries.TEMPLATES,
                at,
                "jobtemplate",
                () -> queries.template(at.key())
                        .map(e -> Response.ok(Manifests.toTree(e.template())).build()));
    }
}
