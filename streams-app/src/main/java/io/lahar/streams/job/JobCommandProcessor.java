package io.lahar.streams.job;

import io.lahar.core.admission.AdmissionContext;
import io.lahar.core.admission.Violation;
import io.lahar.core.api.Job;
import io.lahar.core.command.JobCommands;
import io.lahar.core.command.JobRecord;
import io.lahar.core.command.JobRequest;
import io.lahar.schema.CommandResult;
import io.lahar.schema.JobCommand;
import io.lahar.streams.kafka.DeadLetters;
import io.lahar.streams.queue.QueueLookup;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.jboss.logging.Logger;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the job-commands topic: decodes each record (undecodable ones go to the dead-letter
 * topic), runs the command gate and admission of the core, stores the job, answers every command
 * on the results topic and publishes the admitted job's status. Keyed by {@code namespace/name}.
 */
public final class JobCommandProcessor implements Processor<byte[], byte[], Object, Object> {

    public static final String STORE = "jobs";
    public static final String RESULTS = "command-results-sink";
    public static final String STATUS = "job-status-sink";
    public static final String DEAD_LETTERS = "dead-letters-sink";

    private static final Logger LOG = Logger.getLogger(JobCommandProcessor.class);

    private final Deserializer<JobCommand> commands;
    private final JobStore.Codec codec;
    private final Deserializer<io.lahar.schema.Queue> queueDeserializer;
    private ProcessorContext<Object, Object> context;
    private KeyValueStore<String, byte[]> jobs;
    private QueueLookup queues;

    public JobCommandProcessor(Deserializer<JobCommand> commands, Deserializer<io.lahar.schema.Queue> queueDeserializer, JobStore.Codec codec) {
        this.queueDeserializer = queueDeserializer;
        this.commands = commands;
        this.codec = codec;
    }

    @Override
    public void init(ProcessorContext<Object, Object> context) {
        this.context = context;
        this.jobs = context.getStateStore(STORE);
        this.queues = new QueueLookup(context.getStateStore(io.lahar.streams.queue.QueueStoreUpdater.STORE), queueDeserializer);
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        JobCommand command;
        try {
            command = decode(record);
        } catch (RuntimeException e) {
            LOG.warnf("undecodable record on %s sent to the dead-letter topic: %s",
                    context.recordMetadata().map(m -> m.topic() + "/" + m.partition() + "@" + m.offset()).orElse("?"), e.toString());
            context.forward(DeadLetters.of(context, record, e), DEAD_LETTERS);
            return;
        }
        String key = new String(record.key(), StandardCharsets.UTF_8);
        List<Violation> keyViolations = keyViolations(key, command);
        if (!keyViolations.isEmpty()) {
            context.forward(new Record<>(key, JobRecords.rejection(command, key, keyViolations), record.timestamp()), RESULTS);
            return;
        }
        try {
            apply(key, command, record.timestamp());
        } catch (RuntimeException e) {
            // A bug or an input the core cannot handle must not stop the partition: keep the bytes.
            LOG.errorf(e, "command %s for %s could not be processed", command.getRequestId(), key);
            context.forward(DeadLetters.of(context, record, e), DEAD_LETTERS);
        }
    }

    private JobCommand decode(Record<byte[], byte[]> record) {
        if (record.key() == null) {
            throw new IllegalArgumentException("record has no key: job commands are keyed by namespace/name");
        }
        if (record.value() == null) {
            throw new IllegalArgumentException("record has no value: a job command cannot be a tombstone");
        }
        JobCommand command = commands.deserialize(context.recordMetadata().map(m -> m.topic()).orElse(""), record.value());
        if (command == null) {
            throw new IllegalArgumentException("value decoded to nothing");
        }
        return command;
    }

    private static List<Violation> keyViolations(String key, JobCommand command) {
        List<Violation> violations = new ArrayList<>();
        String expected = command.getNamespace() + "/" + command.getName();
        if (!key.equals(expected)) {
            violations.add(new Violation("key", "record key \"" + key + "\" does not match the command's job \"" + expected
                    + "\": every record about a job is keyed namespace/name"));
        }
        return violations;
    }

    private void apply(String key, JobCommand command, long timestamp) {
        LOG.debugf("command %s (%s) for %s", command.getRequestId(), command.getCommand().getClass().getSimpleName(), key);
        JobRequest request;
        try {
            request = JobRecords.toRequest(command);
        } catch (IllegalArgumentException e) {
            String message = e.getMessage();
            int colon = message.indexOf(": ");
            context.forward(new Record<>(key, JobRecords.rejection(command, key,
                    List.of(new Violation(message.substring(0, colon), message.substring(colon + 2)))), timestamp), RESULTS);
            return;
        }
        byte[] stored = jobs.get(key);
        JobRecord current = stored == null ? null : codec.decode(stored);
        AdmissionContext admission = queues.admissionContext();
        JobCommands.Decision decision = JobCommands.decide(current, request, admission);
        if (decision.next() != null) {
            jobs.put(key, codec.encode(decision.next()));
        }
        CommandResult result = JobRecords.toResult(request, decision.verdict());
        context.forward(new Record<>(key, result, timestamp), RESULTS);
        switch (decision.effect()) {
            case SUBMITTED, UPDATED -> {
                Job job = decision.next().job();
                context.forward(new Record<>(key, JobRecords.toStatusRecord(job, request.time()), timestamp), STATUS);
            }
            // A tombstone: the compacted status topic forgets the job.
            case DELETED -> context.forward(new Record<>(key, null, timestamp), STATUS);
            case NONE, REPLAYED, ACTION -> {
            }
        }
    }
}
