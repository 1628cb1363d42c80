package io.lahar.streams.cron;

import io.lahar.core.admission.AdmissionContext;
import io.lahar.core.admission.AdmissionLimits;
import io.lahar.core.admission.AdmissionResult;
import io.lahar.core.admission.CronJobAdmission;
import io.lahar.core.admission.Violation;
import io.lahar.core.api.CronJob;
import io.lahar.core.api.ManifestException;
import io.lahar.core.api.Manifests;
import io.lahar.core.cron.CronInput;
import io.lahar.core.cron.CronJobs;
import io.lahar.schema.CronJobCommand;
import io.lahar.schema.DeleteCronJob;
import io.lahar.schema.SubmitCronJob;
import io.lahar.schema.SuspendCronJob;
import io.lahar.schema.Topics;
import io.lahar.streams.flow.FlowCommandInput;
import io.lahar.streams.flow.FlowVerdict;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * CronJob commands, answered on {@code lahar.command-results} with the command's requestId and
 * every reason when rejected: SubmitCronJob creates the CronJob, or updates the one of that name
 * (core admission either way; later runs use the new spec), SuspendCronJob sets
 * {@code spec.suspend}, DeleteCronJob deletes it and its jobs. A command seen before (same
 * requestId) is answered as it was and not applied again. Fields of the manifest a CronJob does
 * not have are dropped and named in the result's warnings, as the Kubernetes API server warns.
 */
final class CronCommandInput {

    private final ProcessorContext<Object, Object> context;
    private final CronEngine engine;
    private final AdmissionLimits limits;

    /** @param limits the bounds job admission puts on a job's numbers, which the job template is held to */
    CronCommandInput(ProcessorContext<Object, Object> context, CronEngine engine, AdmissionLimits limits) {
        this.context = context;
        this.engine = engine;
        this.limits = limits;
    }

    void handle(String key, CronJobCommand command, long timestamp) {
        String kind = kindOf(command);
        String expected = Topics.jobKey(command.getNamespace(), command.getName());
        if (!key.equals(expected)) {
            // Answered, so the sender does not wait for its timeout, and dead-lettered: it is bad input.
            Violation violation = new Violation(
                    "key",
                    "record key \"" + key + "\" does not match the command's CronJob \"" + expected
                            + "\": CronJob commands are keyed namespace/name");
            // Keyed as it should have been: its readers find it by requestId, and a result is keyed by its object.
            answer(expected, command, reject(command, kind, List.of(violation)), timestamp);
            throw new IllegalArgumentException(violation.path() + ": " + violation.message());
        }
        CronEntry entry = engine.load(key);
        FlowVerdict seen = FlowVerdict.find(entry.recent(), command.getRequestId());
        if (seen != null) {
            answer(key, command, seen, timestamp);
            return;
        }
        long time = command.getTime().toEpochMilli();
        FlowVerdict verdict = switch (command.getCommand()) {
            case SubmitCronJob s -> submit(key, entry, command, s, kind, time, timestamp);
            case SuspendCronJob s -> {
                if (!entry.live()) {
                    yield notFound(command, kind);
                }
                CronJob stored = entry.info().cronJob();
                FlowVerdict v = accept(command, kind, null, time);
                engine.apply(
                        key,
                        entry.remember(v),
                        new CronInput.Update(stored.withSpec(stored.spec().withSuspend(s.getSuspend())), time),
                        timestamp);
                yield v;
            }
            case DeleteCronJob d -> {
                if (!entry.live()) {
                    yield notFound(command, kind);
                }
                FlowVerdict v = accept(command, kind, null, time);
                engine.apply(key, entry.remember(v), new CronInput.Delete(time), timestamp);
                yield v;
            }
            default ->
                reject(
                        command,
                        kind,
                        List.of(new Violation(
                                "command",
                                "unknown command "
                                        + command.getCommand().getClass().getSimpleName())));
        };
        answer(key, command, verdict, timestamp);
    }

    private FlowVerdict submit(
            String key,
            CronEntry entry,
            CronJobCommand command,
            SubmitCronJob submit,
            String kind,
            long time,
            long timestamp) {
        CronJob cronJob;
        List<String> warnings;
        try {
            Manifests.Reading reading = Manifests.readWithWarnings(submit.getManifest());
            if (!(reading.manifest() instanceof CronJob c)) {
                throw new ManifestException(
                        "expected a CronJob, found a " + reading.manifest().kind());
            }
            cronJob = c;
            warnings = reading.warnings();
        } catch (ManifestException e) {
            return remembered(key, entry, reject(command, kind, List.of(new Violation("", e.getMessage()))));
        }
        if (!cronJob.namespace().equals(command.getNamespace())
                || !cronJob.name().equals(command.getName())) {
            return remembered(
                    key,
                    entry,
                    reject(
                                    command,
                                    kind,
                                    List.of(new Violation(
                                            "metadata.name",
                                            "the manifest is " + cronJob.namespace() + "/" + cronJob.name()
                                                    + " but the command is about " + key)))
                            .withWarnings(warnings));
        }
        AdmissionContext ctx = AdmissionContext.empty().withLimits(limits);
        if (entry.live()) {
            CronJob stored = entry.info().cronJob();
            AdmissionResult<CronJob> r = CronJobAdmission.update(stored, cronJob, ctx);
            if (!r.accepted()) {
                return remembered(
                        key, entry, reject(command, kind, r.violations()).withWarnings(warnings));
            }
            // Who the CronJob is and when it was made stay.
            CronJob updated = r.object().withMetadata(stored.metadata()).withStatus(null);
            FlowVerdict v =
                    accept(command, kind, Manifests.toJson(updated), time).withWarnings(warnings);
            engine.apply(key, entry.remember(v), new CronInput.Update(updated, time), timestamp);
            return v;
        }
        AdmissionResult<CronJob> r = CronJobAdmission.create(cronJob, ctx);
        if (!r.accepted()) {
            return remembered(key, entry, reject(command, kind, r.violations()).withWarnings(warnings));
        }
        // What the API server adds on create: the CR's uid when it came from Kubernetes, else one from
        // the key and the requestId, so replay gives the same.
        String uid = cronJob.metadata().uid() != null
                ? cronJob.metadata().uid()
                : UUID.nameUUIDFromBytes(
                                ("CronJob/" + key + "/" + command.getRequestId()).getBytes(StandardCharsets.UTF_8))
                        .toString();
        CronJob admitted = CronJobs.stamp(r.object(), command.getNamespace(), uid, time);
        FlowVerdict v = accept(command, kind, Manifests.toJson(admitted), time).withWarnings(warnings);
        engine.apply(key, entry.remember(v), new CronInput.Submit(admitted, time), timestamp);
        return v;
    }

    /** A rejection is kept when the CronJob exists or existed, so its retry gets the same answer; else nothing is stored. */
    private FlowVerdict remembered(String key, CronEntry entry, FlowVerdict verdict) {
        if (entry.info() != null) {
            engine.save(key, entry, entry.remember(verdict));
        }
        return verdict;
    }

    private static String kindOf(CronJobCommand command) {
        return switch (command.getCommand()) {
            case SubmitCronJob s -> "SubmitCronJob";
            case SuspendCronJob s -> "SuspendCronJob";
            case DeleteCronJob d -> "DeleteCronJob";
            default -> "Unknown";
        };
    }

    private static FlowVerdict notFound(CronJobCommand command, String kind) {
        return reject(
                command,
                kind,
                List.of(new Violation(
                        "metadata.name",
                        "cronjob \"" + command.getName() + "\" " + FlowCommandInput.NOT_FOUND + " in namespace "
                                + command.getNamespace())));
    }

    private static FlowVerdict reject(CronJobCommand command, String kind, List<Violation> violations) {
        return FlowVerdict.rejected(
                command.getRequestId(),
                kind,
                violations,
                command.getSender(),
                command.getTime().toEpochMilli());
    }

    private static FlowVerdict accept(CronJobCommand command, String kind, String manifest, long time) {
        return FlowVerdict.accepted(command.getRequestId(), kind, manifest, command.getSender(), time);
    }

    private void answer(String key, CronJobCommand command, FlowVerdict verdict, long timestamp) {
        context.forward(
                new Record<>(key, verdict.toResult(command.getNamespace(), command.getName()), timestamp),
                CronSinks.RESULTS);
    }
}
