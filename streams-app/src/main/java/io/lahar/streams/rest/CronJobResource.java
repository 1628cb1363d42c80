package io.lahar.streams.rest;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lahar.core.api.CronJob;
import io.lahar.core.api.Manifests;
import io.lahar.core.cron.CronEvent;
import io.lahar.core.cron.CronJobInfo;
import io.lahar.core.cron.OwnedJob;
import io.lahar.schema.CronJobCommand;
import io.lahar.schema.DeleteCronJob;
import io.lahar.schema.SubmitCronJob;
import io.lahar.schema.SuspendCronJob;
import io.lahar.streams.cron.CronEntry;
import io.lahar.streams.flow.FlowStores;
import jakarta.inject.Inject;
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
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The CronJob API (batch.volcano.sh/v1alpha1 CronJob). Reads answer from the CronJob engine's
 * {@code cronjobs} store (this instance's part, or the owner's over HTTP); writes are
 * CronJobCommands on {@code lahar.cronjob-commands} answered on {@code lahar.command-results}.
 */
@Path(CronJobResource.COLLECTION)
@Produces(MediaType.APPLICATION_JSON)
public class CronJobResource implements ObjectEndpoints {

    static final String COLLECTION = "/api/v1/cronjobs";

    @Inject
    StoreQueries stores;

    @Inject
    FlowRequests requests;

    @Inject
    CommandGateway gateway;

    /** One CronJob in the list: what {@code kubectl get cronjobs} shows, and when it next runs. */
    record CronRow(
            String namespace,
            String name,
            String creationTimestamp,
            String schedule,
            String timeZone,
            boolean suspend,
            int active,
            String lastScheduleTime,
            String nextScheduleTime)
            implements ListedObject {

        static CronRow of(CronJobInfo info) {
            CronJob c = info.cronJob();
            return new CronRow(
                    c.namespace(),
                    c.name(),
                    c.metadata().creationTimestamp(),
                    c.spec().schedule(),
                    c.spec().timeZone(),
                    c.spec().suspended(),
                    info.active().size(),
                    CronJobInfo.rfc3339(info.lastScheduleTime()),
                    CronJobInfo.rfc3339(info.due()));
        }
    }

    @GET
    public Response list(
            @QueryParam("namespace") String namespace, @QueryParam("local") @DefaultValue("false") boolean localOnly) {
        return stores.list(
                StoreQueries.CRONJOBS,
                COLLECTION,
                localOnly,
                this::localRows,
                new TypeReference<List<CronRow>>() {},
                ListedObject.inNamespace(namespace),
                ListedObject.order());
    }

    private List<CronRow> localRows() {
        List<CronRow> rows = new ArrayList<>();
        for (byte[] bytes : stores.all(StoreQueries.CRONJOBS)) {
            CronEntry e = FlowStores.decode(bytes, CronEntry.class);
            if (e.live()) {
                rows.add(CronRow.of(e.info()));
            }
        }
        return rows;
    }

    /**
     * The CronJob with Volcano's status; Lahar adds to the status {@code nextScheduleTime}, the jobs
     * that exist ({@code jobs}: name, scheduledTime, phase) and the latest {@code events}.
     */
    @Override
    public Response get(String namespace, String name) {
        ObjectAddress at = new ObjectAddress(COLLECTION, namespace, name);
        return stores.get(StoreQueries.CRONJOBS, at, "cronjob", () -> {
            byte[] bytes = stores.get(StoreQueries.CRONJOBS, at.key());
            CronEntry entry = bytes == null ? null : FlowStores.decode(bytes, CronEntry.class);
            return entry == null || !entry.live()
                    ? Optional.empty()
                    : Optional.of(Response.ok(view(entry.info())).build());
        });
    }

    static ObjectNode view(CronJobInfo info) {
        ObjectNode tree = Manifests.toTree(info.cronJob().withStatus(info.status()));
        ObjectNode status = tree.withObjectProperty("status");
        if (info.due() != null) {
            status.put("nextScheduleTime", CronJobInfo.rfc3339(info.due()));
        }
        ArrayNode jobs = status.putArray("jobs");
        for (OwnedJob j : info.jobs()) {
            jobs.addObject()
                    .put("name", j.name())
                    .put("scheduledTime", CronJobInfo.rfc3339(j.scheduledTime()))
                    .put("phase", j.phase() == null ? "Pending" : j.phase().name());
        }
        ArrayNode events = status.putArray("events");
        for (CronEvent e : info.events()) {
            events.addObject()
                    .put("type", e.type())
                    .put("reason", e.reason())
                    .put("message", e.message())
                    .put("time", Instant.ofEpochMilli(e.time()).toString());
        }
        return tree;
    }

    /** Creates the CronJob, or updates the one of that name. */
    @Override
    public Response submit(String body, String requestId, String fieldValidation) {
        return requests.posted(
                body,
                CronJob.KIND,
                CronJob.API_VERSION,
                fieldValidation,
                (valid, validation) -> send(
                        command(requestId, valid.namespace(), valid.name(), new SubmitCronJob(valid.manifestJson())),
                        "SubmitCronJob",
                        false,
                        validation,
                        result -> Answers.created(COLLECTION, valid.namespace(), valid.name(), result.getManifest())));
    }

    @Override
    public Response delete(String namespace, String name, String message, String requestId) {
        return onExisting(command(requestId, namespace, name, new DeleteCronJob(message)), "DeleteCronJob");
    }

    @POST
    @Path("/{namespace}/{name}/suspend")
    public Response suspend(
            @PathParam("namespace") String namespace,
            @PathParam("name") String name,
            @HeaderParam(REQUEST_ID) String requestId) {
        return suspend(namespace, name, true, requestId);
    }

    @POST
    @Path("/{namespace}/{name}/resume")
    public Response resume(
            @PathParam("namespace") String namespace,
            @PathParam("name") String name,
            @HeaderParam(REQUEST_ID) String requestId) {
        return suspend(namespace, name, false, requestId);
    }

    private Response suspend(String namespace, String name, boolean suspend, String requestId) {
        return onExisting(command(requestId, namespace, name, new SuspendCronJob(suspend)), "SuspendCronJob");
    }

    /**
     * A command on a CronJob that must exist (delete, suspend, resume): all are answered alike, 404
     * when it does not exist, as a delete is, and the same accepted body.
     */
    private Response onExisting(CronJobCommand command, String kind) {
        return send(command, kind, true, FieldValidation.Warn, FlowRequests::deleted);
    }

    private Response send(
            CronJobCommand command,
            String kind,
            boolean notFoundIs404,
            FieldValidation validation,
            java.util.function.Function<io.lahar.schema.CommandResult, Response> onAccepted) {
        return requests.answer(
                new FlowRequests.Sent(
                        kind,
                        "cronjob",
                        command.getRequestId(),
                        command.getNamespace(),
                        command.getName(),
                        notFoundIs404),
                () -> gateway.send(command, requests.commandTimeout()),
                validation,
                onAccepted);
    }

    private static CronJobCommand command(String requestId, String namespace, String name, Object body) {
        return CronJobCommand.newBuilder()
                .setRequestId(Answers.requestId(requestId))
                .setSender(Answers.SENDER)
                .setNamespace(namespace)
                .setName(name)
                // The edge stamps the time; the engine never reads a clock of its own.
                .setTime(Instant.now())
                .setCommand(body)
                .build();
    }
}
