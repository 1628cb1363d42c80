package io.lahar.streams.rest;

import io.lahar.schema.CommandResult;
import io.lahar.schema.DeleteFlowObject;
import io.lahar.schema.FlowCommand;
import io.lahar.schema.FlowKind;
import io.lahar.schema.SubmitFlowObject;
import io.lahar.streams.flow.FlowCommandInput;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.Response;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.apache.kafka.streams.KafkaStreams;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * What the JobFlow, JobTemplate and CronJob resources share: reading a posted manifest far enough
 * to address its command and sending FlowCommands; and, for every resource's commands (jobs' too),
 * turning their answers into HTTP in one place (201/200, 409 for an object that exists where that
 * is a conflict, 404 for a delete of one that does not, 422 with every reason, 503 while Kafka
 * Streams is not running, 504 without an answer in time). Who may call is {@link ApiAuth}'s to say.
 */
@ApplicationScoped
public class FlowRequests {

    @Inject
    CommandGateway gateway;

    @Inject
    MeterRegistry metrics;

    @Inject
    KafkaStreams streams;

    @Inject
    BodyLimit bodyLimit;

    @ConfigProperty(name = "lahar.api.command-timeout", defaultValue = "30S")
    Duration commandTimeout;

    /**
     * Sends a posted manifest as a submit command: 413 over the size limit (the body, then the
     * manifest as JSON), 422 when it cannot be addressed, otherwise the command's answer: 201 with
     * the admitted object under {@code collection} when accepted.
     */
    Response submit(
            String body,
            FlowKind kind,
            String apiVersion,
            String collection,
            String requestId,
            String fieldValidation) {
        return posted(
                body,
                kind.name(),
                apiVersion,
                fieldValidation,
                (valid, validation) -> answer(
                        submit(requestId, kind, valid.namespace(), valid.name(), valid.manifestJson()),
                        validation,
                        result -> Answers.created(collection, valid.namespace(), valid.name(), result.getManifest())));
    }

    /**
     * A posted manifest of {@code kind}, checked before anything is sent: 400 for an unknown
     * {@code fieldValidation}, 413 over the size limit (the body, then the manifest as JSON), 422
     * when it cannot be addressed or (Strict) holds unknown fields; otherwise what {@code send} answers.
     */
    Response posted(
            String body,
            String kind,
            String apiVersion,
            String fieldValidation,
            java.util.function.BiFunction<SubmitRequest.Valid, FieldValidation, Response> send) {
        Optional<FieldValidation> validation = FieldValidation.of(fieldValidation);
        if (validation.isEmpty()) {
            return FieldValidation.invalid(fieldValidation);
        }
        Response tooLarge = bodyLimit.refuseBody(body);
        if (tooLarge != null) {
            return tooLarge;
        }
        return switch (SubmitRequest.parse(body, kind, apiVersion)) {
            case SubmitRequest.Invalid invalid ->
                Response.status(422)
                        .entity(new ApiError("invalid manifest", invalid.reasons()))
                        .build();
            case SubmitRequest.Valid valid
            when bodyLimit.refuseManifest(valid.manifestJson()) != null ->
                bodyLimit.refuseManifest(valid.manifestJson());
            case SubmitRequest.Valid valid
            when validation.get().refuse(valid.manifestJson()) != null ->
                validation.get().refuse(valid.manifestJson());
            case SubmitRequest.Valid valid -> send.apply(valid, validation.get());
        };
    }

    static FlowCommand submit(String requestId, FlowKind kind, String namespace, String name, String manifestJson) {
        return command(requestId, kind, namespace, name, new SubmitFlowObject(manifestJson));
    }

    static FlowCommand delete(String requestId, FlowKind kind, String namespace, String name, String message) {
        return command(requestId, kind, namespace, name, new DeleteFlowObject(message));
    }

    private static FlowCommand command(String requestId, FlowKind kind, String namespace, String name, Object body) {
        return FlowCommand.newBuilder()
                .setRequestId(Answers.requestId(requestId))
                .setSender(Answers.SENDER)
                .setNamespace(namespace)
                .setName(name)
                // The edge stamps the time; the engine never reads a clock of its own.
                .setTime(Instant.now())
                .setKind(kind)
                .setCommand(body)
                .build();
    }

    /** Sends the command and answers: {@code onAccepted} for an accepted one, the error statuses otherwise. */
    Response answer(FlowCommand command, Function<CommandResult, Response> onAccepted) {
        return answer(command, FieldValidation.Warn, onAccepted);
    }

    /** As {@link #answer(FlowCommand, Function)}, the command's warnings as {@code Warning} headers as {@code validation} says. */
    Response answer(FlowCommand command, FieldValidation validation, Function<CommandResult, Response> onAccepted) {
        boolean delete = command.getCommand() instanceof DeleteFlowObject;
        return answer(
                new Sent(
                        (delete ? "Delete" : "Submit") + command.getKind().name(),
                        command.getKind().name().toLowerCase(),
                        command.getRequestId(),
                        command.getNamespace(),
                        command.getName(),
                        delete),
                () -> gateway.send(command, commandTimeout),
                validation,
                onAccepted);
    }

    /**
     * A command on its way, as the answer needs it: its result kind, what it is about (for the
     * messages), and whether it deletes (a delete of nothing is 404).
     */
    record Sent(
            String kind,
            String what,
            String requestId,
            String namespace,
            String name,
            boolean delete,
            boolean existsIsConflict) {
        Sent(String kind, String what, String requestId, String namespace, String name, boolean delete) {
            this(kind, what, requestId, namespace, name, delete, true);
        }
    }

    /** Sends a command and waits for its result. */
    @FunctionalInterface
    interface Sender {
        CommandResult send() throws TimeoutException, InterruptedException;
    }

    /**
     * Sends with {@code sender} and answers: {@code onAccepted} for an accepted command; 409 when
     * the object exists, 404 for a delete of one that does not, 422 with every reason, 503 while
     * Kafka Streams is not running, 504 without an answer in time; the command's warnings as
     * {@code Warning} headers as {@code validation} says.
     */
    Response answer(
            Sent sent, Sender sender, FieldValidation validation, Function<CommandResult, Response> onAccepted) {
        String kind = sent.kind();
        if (!streams.state().isRunningOrRebalancing()) {
            return Answers.unavailable("Kafka Streams is " + streams.state() + "; retry shortly");
        }
        CommandResult result;
        try {
            result = sender.send();
        } catch (TimeoutException e) {
            metrics.counter("lahar.rest.commands", "kind", kind, "outcome", "timeout")
                    .increment();
            return Response.status(Response.Status.GATEWAY_TIMEOUT)
                    .header(ObjectEndpoints.REQUEST_ID, sent.requestId())
                    .entity(ApiError.of("no answer to command " + sent.requestId() + " within " + commandTimeout
                            + "; it may still be applied"))
                    .build();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Answers.unavailable("interrupted");
        } catch (CommandGateway.NotSent e) {
            return Answers.notSent(e);
        }
        metrics.counter("lahar.rest.commands", "kind", kind, "outcome", result.getAccepted() ? "accepted" : "rejected")
                .increment();
        if (result.getAccepted()) {
            return validation.withWarnings(onAccepted.apply(result), result.getWarnings());
        }
        List<ApiError.Reason> reasons = result.getViolations().stream()
                .map(v -> new ApiError.Reason(v.getPath(), v.getMessage()))
                .toList();
        String what = sent.what() + " " + sent.namespace() + "/" + sent.name();
        boolean exists = sent.existsIsConflict()
                && reasons.stream()
                        .anyMatch(r -> r.path().equals("metadata.name")
                                && r.message().endsWith(FlowCommandInput.ALREADY_EXISTS));
        boolean missing = sent.delete()
                && reasons.size() == 1
                && reasons.get(0).path().equals("metadata.name")
                && reasons.get(0).message().contains(FlowCommandInput.NOT_FOUND);
        if (exists) {
            return Response.status(Response.Status.CONFLICT)
                    .entity(new ApiError(what + " already exists", reasons))
                    .build();
        }
        if (missing) {
            return Response.status(Response.Status.NOT_FOUND)
                    .entity(new ApiError(what + " not found", reasons))
                    .build();
        }
        return validation.withWarnings(
                Response.status(422)
                        .entity(new ApiError(kind + " rejected", reasons))
                        .build(),
                result.getWarnings());
    }

    Duration commandTimeout() {
        return commandTimeout;
    }

    /** The answer to an accepted delete: {@code {"requestId","kind","namespace","name","accepted":true}}. */
    static Response deleted(CommandResult result) {
        return Response.ok(JobResource.Accepted.of(result)).build();
    }
}
