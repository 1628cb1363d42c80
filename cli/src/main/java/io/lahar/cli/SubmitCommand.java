package io.lahar.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.lahar.core.api.Job;
import io.lahar.core.api.ManifestException;
import io.lahar.core.api.Manifests;
import io.lahar.schema.CommandResult;
import io.lahar.schema.JobCommand;
import io.lahar.schema.SubmitJob;
import io.lahar.schema.Topics;
import io.lahar.schema.serde.RegistrySerdes;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.serialization.StringSerializer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code lahar submit}: sends Volcano Jobs straight to the job-commands topic, as any other
 * system producing job events would, and waits for each one's answer on the results topic.
 */
@Command(
        name = "submit",
        description = "Submit Volcano Jobs to the job-commands topic and print each command's result.")
public final class SubmitCommand extends Verb {

    @Option(
            names = {"-f", "--filename"},
            required = true,
            description = "File with one or more Job manifests (YAML or JSON).")
    List<Path> files;

    @picocli.CommandLine.Mixin
    KafkaOptions kafka;

    @Option(
            names = "--sender",
            defaultValue = "lahar-cli",
            description = "Sender recorded on each command (default: ${DEFAULT-VALUE}).")
    String sender;

    @Option(
            names = "--timeout",
            defaultValue = "60",
            description = "Seconds to wait for all results (default: ${DEFAULT-VALUE}).")
    int timeoutSeconds;

    @Option(
            names = "--validate",
            defaultValue = "strict",
            paramLabel = "MODE",
            description =
                    "Fields a Job does not have, as kubectl's --validate: strict (default) refuses the file before"
                            + " sending; warn sends, the engine drops them and its warnings are printed; ignore sends and prints nothing.")
    String validate;

    /** A Job to send: the manifest as written (unknown fields and all, for the engine to judge) and the Job read from it. */
    private record Submission(Job job, String manifestJson) {}

    @Override
    public Integer call() {
        PrintWriter out = out();
        PrintWriter err = err();
        if (!List.of("strict", "warn", "ignore").contains(validate)) {
            err.println("error: --validate must be strict, warn or ignore, not \"" + validate + "\"");
            return Lahar.EXIT_INPUT;
        }
        List<Submission> jobs = new ArrayList<>();
        boolean unknownFields = false;
        for (Path file : files) {
            try {
                for (JsonNode doc : Manifests.readTrees(Files.readString(file))) {
                    Manifests.Reading reading = Manifests.fromTreeWithWarnings(doc);
                    if (!(reading.manifest() instanceof Job job)) {
                        err.println("error: " + file + ": " + reading.manifest().kind()
                                + " is not a Job; submit sends Jobs only");
                        return Lahar.EXIT_INPUT;
                    }
                    if (validate.equals("strict")) {
                        // kubectl's default: a field the server would drop is the user's mistake, refused before
                        // sending.
                        for (String field : reading.unknownFields()) {
                            err.println("error: " + field + ": unknown field (--validate=strict) [Job "
                                    + Topics.jobKey(job.namespace(), job.name()) + "]");
                            unknownFields = true;
                        }
                    }
                    jobs.add(new Submission(job, Manifests.toJson(doc)));
                }
            } catch (IOException | ManifestException e) {
                err.println("error: " + file + ": " + e.getMessage());
                return Lahar.EXIT_INPUT;
            }
        }
        if (unknownFields) {
            return Lahar.EXIT_REJECTED;
        }
        Map<String, String> requests = new LinkedHashMap<>();
        KafkaOptions.Resolved where = kafka.resolve(spec);
        RegistrySerdes serde = where.serdes();
        try (KafkaConsumer<String, CommandResult> consumer = CommittedRecords.follow(
                        where,
                        Topics.COMMAND_RESULTS,
                        serde.value(CommandResult.class).deserializer());
                KafkaProducer<String, JobCommand> producer = producer(where, serde)) {
            // Position at the end of the results before sending, so no answer can be missed.
            consumer.seekToEnd(consumer.assignment());
            consumer.assignment().forEach(consumer::position);
            Map<String, Future<RecordMetadata>> sends = new LinkedHashMap<>();
            for (Submission submission : jobs) {
                Job job = submission.job();
                String requestId = UUID.randomUUID().toString();
                String key = Topics.jobKey(job.namespace(), job.name());
                requests.put(requestId, key);
                JobCommand command = JobCommand.newBuilder()
                        .setRequestId(requestId)
                        .setSender(sender)
                        .setNamespace(job.namespace())
                        .setName(job.name())
                        .setTime(Instant.now())
                        .setCommand(new SubmitJob(submission.manifestJson()))
                        .build();
                sends.put(requestId, producer.send(new ProducerRecord<>(Topics.JOB_COMMANDS.name(), key, command)));
            }
            producer.flush();
            int notSent = notSent(sends, requests, err);
            return notSent != 0 ? notSent : awaitResults(consumer, requests, out, err);
        }
    }

    /**
     * Reports each command the producer could not write (too large for a record, or the broker
     * did not take it) with its reason; 0 when every one was sent, else the exit code.
     */
    private int notSent(Map<String, Future<RecordMetadata>> sends, Map<String, String> requests, PrintWriter err) {
        int code = 0;
        for (var send : sends.entrySet()) {
            try {
                send.getValue().get();
            } catch (ExecutionException e) {
                boolean tooLarge = e.getCause() instanceof RecordTooLargeException;
                err.println("error: job " + requests.get(send.getKey()) + ": not sent: "
                        + (tooLarge
                                ? "the command is too large for one Kafka record (make the manifest smaller): "
                                : "")
                        + e.getCause().getMessage());
                code = Math.max(code, tooLarge ? Lahar.EXIT_REJECTED : Lahar.EXIT_INPUT);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Lahar.EXIT_INPUT;
            }
        }
        return code;
    }

    private int awaitResults(
            KafkaConsumer<String, CommandResult> consumer,
            Map<String, String> requests,
            PrintWriter out,
            PrintWriter err) {
        Map<String, CommandResult> answers = new LinkedHashMap<>();
        long deadline = System.nanoTime() + Duration.ofSeconds(timeoutSeconds).toNanos();
        while (answers.size() < requests.size() && System.nanoTime() < deadline) {
            for (ConsumerRecord<String, CommandResult> record : consumer.poll(Duration.ofMillis(200))) {
                if (record.value() != null
                        && requests.containsKey(record.value().getRequestId())) {
                    answers.put(record.value().getRequestId(), record.value());
                }
            }
        }
        boolean allAccepted = true;
        for (var request : requests.entrySet()) {
            CommandResult result = answers.get(request.getKey());
            if (result == null) {
                err.println("error: job " + request.getValue() + ": no result within " + timeoutSeconds
                        + "s (is streams-app running?)");
                return Lahar.EXIT_INPUT;
            }
            if (!validate.equals("ignore")) {
                result.getWarnings().forEach(w -> err.println("Warning: " + w + " [Job " + request.getValue() + "]"));
            }
            if (result.getAccepted()) {
                out.println(Results.line("Created", "Job", request.getValue()));
            } else {
                allAccepted = false;
                out.println(Results.line("Rejected", "Job", request.getValue()));
                result.getViolations()
                        .forEach(v -> err.println(
                                "error: " + v.getPath() + ": " + v.getMessage() + " [Job " + request.getValue() + "]"));
            }
        }
        return allAccepted ? 0 : Lahar.EXIT_REJECTED;
    }

    private static KafkaProducer<String, JobCommand> producer(KafkaOptions.Resolved where, RegistrySerdes serde) {
        return where.clients()
                .producer(
                        Map.of(ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true),
                        new StringSerializer(),
                        serde.value(JobCommand.class).serializer());
    }
}
