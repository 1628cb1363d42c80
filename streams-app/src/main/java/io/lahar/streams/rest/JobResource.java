package io.lahar.streams.rest;

import static io.lahar.streams.rest.Answers.blank;

import com.fasterxml.jackson.core.type.TypeReference;
import io.lahar.core.api.Job;
import io.lahar.core.api.Manifests;
import io.lahar.schema.CommandResult;
import io.lahar.schema.DeleteJob;
import io.lahar.schema.JobAction;
import io.lahar.schema.JobActionCommand;
import io.lahar.schema.JobCommand;
import io.lahar.schema.SubmitJob;
import io.lahar.schema.Topics;
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
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The job API of the streams-app. Reads answer from the {@code jobs} store (this instance's, or
 * the owner's over HTTP); writes are commands on {@code lahar.job-commands} whose answer is read
 * back from {@code lahar.command-results}. A store in rebalance answers 503 with Retry-After,
 * a command without an answer in time 504: both are safe to retry.
 */
@Path(JobResource.COLLECTION)
@Produces(MediaType.APPLICATION_JSON)
public class JobResource implements ObjectEndpoints {

    static final String COLLECTION = "/api/v1/jobs";

    @Inject
    JobQueries queries;

    @Inject
    StoreQueries stores;

    @Inject
    FlowRequests requests;

    @Inject
    CommandGateway gateway;

    @Inject
    TransitionReader transitions;

    @ConfigProperty(name = "lahar.api.command-timeout", defaultValue = "30S")
    Duration commandTimeout;

    @GET
    public Response list(
            @QueryParam("namespace") String namespace,
            @QueryParam("queue") String queue,
            @QueryParam("phase") String phase,
            @QueryParam("local") @DefaultValue("false") boolean localOnly) {
        return stores.list(
                StoreQueries.JOBS,
                COLLECTION,
                localOnly,
                () -> queries.allLocal().stream().map(JobSummary::of).toList(),
                new TypeReference<List<JobSummary>>() {},
                ListedObject.<JobSummary>inNamespace(namespace)
                        .and(j -> (blank(queue) || queue.equals(j.queue()))
                                && (blank(phase) || phase.equalsIgnoreCase(j.phase()))),
                ListedObject.order());
    }

    @Override
    public Response get(String namespace, String name) {
        ObjectAddress at = new ObjectAddress(COLLECTION, namespace, name);
        return stores.get(
                StoreQueries.JOBS,
                at,
                "job",
                () -> queries.local(at.key())
                        .map(info -> Response.ok(Manifests.toTree(info.job())).build()));
    }

    /**
     * The job's pods as its engine knows them: task and index, job version, phase, the node the
     * pod was last reported on, restarts, exit code, and whether the engine asked for its deletion.
     */
    @GET
    @Path("/{namespace}/{name}/pods")
    public Response pods(@PathParam("namespace") String namespace, @PathParam("name") String name) {
        ObjectAddress at = new ObjectAddress(COLLECTION, namespace, name);
        return stores.get(
                StoreQueries.JOBS,
                at.key(),
                at.path() + "/pods",
                "job",
                () -> queries.local(at.key())
                        .map(info -> Response.ok(info.pods().values().stream()
                                        .map(PodView::of)
                                        .toList())
                                .build()));
    }

    /** One pod of {@link #pods}, as JSON. */
    public record PodView(
            String name,
            String task,
            int index,
            int version,
            String phase,
            String node,
            int restarts,
            Integer exitCode,
            boolean terminating) {
        static PodView of(io.lahar.core.job.JobPod pod) {
            return new PodView(
                    pod.name(),
                    pod.task(),
                    pod.index(),
                    pod.version(),
                    pod.phase() == null ? null : pod.phase().name(),
                    pod.node(),
                    pod.restartCount(),
                    pod.exitCode(),
                    pod.terminating());
        }
    }

    @GET
    @Path("/{namespace}/{name}/transitions")
    public Response transitions(
            @PathParam("namespace") String namespace,
            @PathParam("name") String name,
            @QueryParam("limit") @DefaultValue("100") int limit) {
        if (limit < 1 || limit > 10_000) {
            return Response.status(400)
                    .entity(new ApiError(
                            "bad query",
                            List.of(new ApiError.Reason("limit", "must be between 1 and 10000, was " + limit))))
                    .build();
        }
        return Response.ok(transitions.read(Topics.jobKey(namespace, name), limit, Duration.ofSeconds(10)))
                .build();
    }

    @Override
    public Response submit(String body, String requestId, String fieldValidation) {
        return requests.posted(
                body,
                Job.KIND,
                Job.API_VERSION,
                fieldValidation,
                (valid, validation) -> answer(
                        command(requestId, valid.namespace(), valid.name(), new SubmitJob(valid.manifestJson())),
                        validation,
                        result -> Answers.created(COLLECTION, valid.namespace(), valid.name(), result.getManifest())));
    }

    @POST
    @Path("/{namespace}/{name}/actions/{action}")
    public Response act(
            @PathParam("namespace") String namespace,
            @PathParam("name") String name,
            @PathParam("action") String action,
            @QueryParam("task") String task,
            @QueryParam("pod") String pod,
            @QueryParam("message") String message,
            @HeaderParam(REQUEST_ID) String requestId) {
        Optional<JobAction> known = Arrays.stream(JobAction.values())
                .filter(a -> a != JobAction.Unknown && a.name().equals(action))
                .findFirst();
        if (known.isEmpty()) {
            return Response.status(422)
                    .entity(new ApiError(
                            "unknown action",
                            List.of(new ApiError.Reason(
                                    "action",
                                    "'" + action + "' is not one of "
                                            + Arrays.stream(JobAction.values())
                                                    .filter(a -> a != JobAction.Unknown)
                                                    .map(Enum::name)
                                                    .toList()))))
                    .build();
        }
        JobCommand command = command(requestId, namespace, name, new JobActionCommand(known.get(), task, pod, message));
        return answer(command, result -> Response.ok(Accepted.of(result)).build());
    }

    @Override
    public Response delete(String namespace, String name, String message, String requestId) {
        return answer(
                command(requestId, namespace, name, new DeleteJob(message)),
                result -> Response.ok(Accepted.of(result)).build());
    }

    /** The answer to an accepted action or delete. */
    public record Accepted(String requestId, String kind, String namespace, String name, boolean accepted) {
        static Accepted of(CommandResult result) {
            return new Accepted(result.getRequestId(), result.getKind(), result.getNamespace(), result.getName(), true);
        }
    }

    private Response answer(JobCommand command, java.util.function.Function<CommandResult, Response> onAccepted) {
        return answer(command, FieldValidation.Warn, onAccepted);
    }

    /** The command's answer, its warnings as {@code Warning} headers as {@code validation} says. */
    private Response answer(
            JobCommand command,
            FieldValidation validation,
            java.util.function.Function<CommandResult, Response> onAccepted) {
        String kind = command.getCommand() instanceof JobActionCommand a
                ? a.getAction().name()
                : command.getCommand().getClass().getSimpleName();
        // A job that exists or is missing is a 422 with its reason, as the job API has always answered.
        FlowRequests.Sent sent = new FlowRequests.Sent(
                kind, "job", command.getRequestId(), command.getNamespace(), command.getName(), false, false);
        return requests.answer(sent, () -> gateway.send(command, commandTimeout), validation, onAccepted);
    }

    private static JobCommand command(String requestId, String namespace, String name, Object body) {
        return JobCommand.newBuilder()
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
