package io.lahar.streams.job;

import io.lahar.core.admission.AdmissionLimits;
import io.lahar.core.admission.Violation;
import io.lahar.core.command.CommandStep;
import io.lahar.core.command.JobRecord;
import io.lahar.core.command.JobRequest;
import io.lahar.core.command.JobVerdict;
import io.lahar.core.job.Input;
import io.lahar.schema.JobCommand;
import io.lahar.schema.Topics;
import io.lahar.schema.codec.JobCommandCodec;
import io.lahar.streams.kafka.StateSize;
import io.lahar.streams.queue.QueueLookup;
import java.util.List;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.jboss.logging.Logger;

/**
 * Job commands: the core's command gate (parse, admission, idempotency by requestId, and the
 * action gate: {@link CommandStep}) answers every command on the results topic; an accepted
 * submit, update, delete or action then enters the job engine. An action the job's phase has no
 * use for is answered rejected and changes nothing. Admission bounds the job's numbers (the
 * configured {@link AdmissionLimits}), and the state a submit or an update would leave is bounded
 * too: one over {@link JobStore#COMMAND_MAX_BYTES} is refused with its size, never written.
 */
final class CommandInput implements InputHandler {

    private static final Logger LOG = Logger.getLogger(CommandInput.class);

    private final Deserializer<JobCommand> deserializer;
    private final ProcessorContext<Object, Object> context;
    private final JobEngine engine;
    private final QueueLookup queues;
    private final AdmissionLimits limits;

    CommandInput(
            Deserializer<JobCommand> deserializer,
            ProcessorContext<Object, Object> context,
            JobEngine engine,
            QueueLookup queues,
            AdmissionLimits limits) {
        this.deserializer = deserializer;
        this.context = context;
        this.engine = engine;
        this.queues = queues;
        this.limits = limits;
    }

    @Override
    public void handle(String key, byte[] value, long timestamp) {
        JobCommand command = Decoding.decode(deserializer, Topics.JOB_COMMANDS.name(), value);
        String expected = Topics.jobKey(command.getNamespace(), command.getName());
        if (!key.equals(expected)) {
            // Answered, so the sender does not wait for its timeout, and dead-lettered: it is bad input.
            Violation violation = new Violation(
                    "key",
                    "record key \"" + key + "\" does not match the command's job \"" + expected
                            + "\": every record about a job is keyed namespace/name");
            // Keyed as it should have been: its readers find it by requestId, and a result is keyed by its job.
            answer(expected, JobCommandCodec.rejection(command, List.of(violation)), timestamp);
            throw new IllegalArgumentException(violation.path() + ": " + violation.message());
        }
        JobRequest request;
        try {
            request = JobCommandCodec.toRequest(command);
        } catch (IllegalArgumentException e) {
            answer(key, JobCommandCodec.rejection(command, List.of(Decoding.violation(e))), timestamp);
            return;
        }
        LOG.debugf("command %s (%s) for %s", request.requestId(), request.kind(), key);
        JobEntry entry = engine.load(key);
        CommandStep step = CommandStep.of(
                entry.info(), entry.recent(), request, queues.admissionContext().withLimits(limits));
        JobVerdict verdict = step.verdict();
        if (step.recent() != null) {
            JobEntry next = entry.withRecent(step.recent());
            if (step.input() instanceof Input.Submit || step.input() instanceof Input.Update) {
                verdict = applyWithinSize(key, entry, next, step, request, timestamp);
            } else if (step.input() != null) {
                engine.apply(key, next, step.input(), timestamp);
            } else {
                engine.save(key, entry, next);
            }
        }
        answer(key, JobCommandCodec.toResult(request, verdict), timestamp);
    }

    /**
     * A submit or an update is applied only if the job's state after it stays within
     * {@link JobStore#COMMAND_MAX_BYTES}; otherwise it is refused with the size, before anything is
     * written, and the job (if it exists) stays as it was, remembering the refusal for a retry.
     */
    private JobVerdict applyWithinSize(
            String key, JobEntry entry, JobEntry next, CommandStep step, JobRequest request, long timestamp) {
        try {
            engine.apply(key, next, step.input(), timestamp, JobStore.COMMAND_MAX_BYTES);
            return step.verdict();
        } catch (StateSize.TooLarge e) {
            JobVerdict refused = new JobVerdict(
                    request.requestId(),
                    request.kind(),
                    false,
                    List.of(e.violation("job", "its pods and status")),
                    null,
                    request.time());
            if (entry.info().submitted()) {
                engine.save(
                        key,
                        entry,
                        entry.withRecent(
                                JobRecord.of(entry.info(), entry.recent()).recentWith(refused)));
            }
            return refused;
        }
    }

    private void answer(String key, io.lahar.schema.CommandResult result, long timestamp) {
        context.forward(new Record<>(key, result, timestamp), Sinks.RESULTS);
    }
}
