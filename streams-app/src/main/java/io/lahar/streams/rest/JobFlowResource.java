package io.lahar.streams.rest;

import static io.lahar.streams.rest.Answers.blank;

import com.fasterxml.jackson.core.type.TypeReference;
import io.lahar.core.api.JobFlow;
import io.lahar.core.api.Manifests;
import io.lahar.core.flow.FlowInfo;
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
 * The JobFlow API (flow.volcano.sh/v1alpha1 JobFlow). Reads answer from the flow engine's
 * {@code flows} store (this instance's part, or the owner's over HTTP); writes are FlowCommands
 * on {@code lahar.flow-commands} answered on {@code lahar.command-results}.
 */
@Path(JobFlowResource.COLLECTION)
@Produces(MediaType.APPLICATION_JSON)
public class JobFlowResource extends FlowObjectResource {

    static final String COLLECTION = "/api/v1/jobflows";

    public JobFlowResource() {
        super(FlowKind.JobFlow, JobFlow.API_VERSION, COLLECTION);
    }

    @GET
    public Response list(
            @QueryParam("namespace") String namespace,
            @QueryParam("phase") String phase,
            @QueryParam("local") @DefaultValue("false") boolean localOnly) {
        return stores.list(
                StoreQueries.FLOWS,
                COLLECTION,
                localOnly,
                () -> queries.flows().stream()
                        .map(e -> FlowRows.FlowRow.of(e.info()))
                        .toList(),
                new TypeReference<List<FlowRows.FlowRow>>() {},
                ListedObject.<FlowRows.FlowRow>inNamespace(namespace)
                        .and(r -> blank(phase) || phase.equalsIgnoreCase(r.phase())),
                ListedObject.order());
    }

    @Override
    public Response get(String namespace, String name) {
        ObjectAddress at = new ObjectAddress(COLLECTION, namespace, name);
        return stores.get(
                StoreQueries.FLOWS,
                at,
                "jobflow",
                () -> queries.flow(at.key()).map(e -> {
                    FlowInfo info = e.info();
                    return Response.ok(Manifests.toTree(info.flow().withStatus(info.status())))
                            .build();
                }));
    }
}
