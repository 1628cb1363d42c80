package io.lahar.console.api;

import io.lahar.console.ConsoleService;
import io.lahar.console.view.ConsoleViews;
import io.lahar.console.view.FlowsView;
import io.lahar.console.view.JobDetail;
import io.lahar.console.view.JobsView;
import io.lahar.console.view.NodesView;
import io.lahar.console.view.QueuesView;
import io.lahar.schema.Topics;
import jakarta.inject.Inject;
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
import java.util.List;
import java.util.Map;

/**
 * The console's read API, over its own views (never the engine's stores): what the pages show,
 * as JSON. Lists of jobs are filtered, sorted and paged here, so a page fetches one screenful.
 */
@Path("/api")
@Produces(MediaType.APPLICATION_JSON)
public class ConsoleResource {

    /** Most rows one jobs request returns. */
    static final int MAX_LIMIT = 500;

    @Inject
    ConsoleService console;

    /** What the header shows: whether actions are enabled, whether the views are complete, sizes. */
    public record Summary(boolean readOnly, boolean caughtUp, Map<String, Integer> counts) {}

    @GET
    @Path("/summary")
    public Summary summary() {
        return new Summary(
                console.actions().readOnly(),
                console.caughtUp(),
                console.views().counts());
    }

    @GET
    @Path("/jobs")
    public Response jobs(
            @QueryParam("namespace") String namespace,
            @QueryParam("queue") String queue,
            @QueryParam("phase") String phase,
            @QueryParam("q") String text,
            @QueryParam("sort") String sort,
            @QueryParam("offset") @DefaultValue("0") int offset,
            @QueryParam("limit") @DefaultValue("50") int limit) {
        if (offset < 0 || limit < 0 || limit > MAX_LIMIT) {
            return Response.status(400)
                    .entity(Map.of("error", "offset must be >= 0 and limit between 0 and " + MAX_LIMIT))
                    .build();
        }
        JobsView.Page page =
                console.views().jobs(new JobsView.Query(namespace, queue, phase, text, sort, offset, limit));
        return Response.ok(page).build();
    }

    @GET
    @Path("/jobs/{namespace}/{name}")
    public Response job(@PathParam("namespace") String namespace, @PathParam("name") String name) {
        JobDetail job = console.views().job(Topics.jobKey(namespace, name));
        return job == null
                ? notFound("job " + namespace + "/" + name)
                : Response.ok(job).build();
    }

    /** Abort, resume or restart a job: passed to the streams-app with the console's token. */
    @POST
    @Path("/jobs/{namespace}/{name}/actions/{action}")
    public Response act(
            @PathParam("namespace") String namespace,
            @PathParam("name") String name,
            @PathParam("action") String action,
            @HeaderParam(JobActions.HEADER) String marker) {
        return JobActions.act(console.actions(), namespace, name, action, marker);
    }

    /** Delete a job: passed to the streams-app with the console's token. */
    @DELETE
    @Path("/jobs/{namespace}/{name}")
    public Response delete(
            @PathParam("namespace") String namespace,
            @PathParam("name") String name,
            @HeaderParam(JobActions.HEADER) String marker) {
        return JobActions.delete(console.actions(), namespace, name, marker);
    }

    @GET
    @Path("/queues")
    public List<QueuesView.QueueRow> queues() {
        return console.views().queues();
    }

    @GET
    @Path("/flows")
    public List<FlowsView.FlowRow> flows() {
        return console.views().flows();
    }

    @GET
    @Path("/flows/{namespace}/{name}")
    public Response flow(@PathParam("namespace") String namespace, @PathParam("name") String name) {
        FlowsView.FlowDetail flow = console.views().flow(Topics.jobKey(namespace, name));
        return flow == null
                ? notFound("flow " + namespace + "/" + name)
                : Response.ok(flow).build();
    }

    @GET
    @Path("/nodes")
    public List<NodesView.NodeRow> nodes() {
        return console.views().nodes();
    }

    @GET
    @Path("/deadletters")
    public ConsoleViews.DeadLetters deadLetters() {
        return console.views().deadLetters();
    }

    @GET
    @Path("/records/{topic}/{partition}/{offset}")
    public Response record(
            @PathParam("topic") String topic, @PathParam("partition") int partition, @PathParam("offset") long offset) {
        return console.records()
                .find(topic, partition, offset)
                .map(r -> Response.ok(r).build())
                .orElseGet(() -> notFound("record " + topic + "/" + partition + "@" + offset));
    }

    static Response notFound(String what) {
        return Response.status(404).entity(Map.of("error", what + " not found")).build();
    }
}
