package io.lahar.core.command;

import io.lahar.core.admission.AdmissionContext;
import io.lahar.core.admission.AdmissionResult;
import io.lahar.core.admission.JobAdmission;
import io.lahar.core.admission.Violation;
import io.lahar.core.api.Job;
import io.lahar.core.api.JobPhase;
import io.lahar.core.api.JobState;
import io.lahar.core.api.JobStatus;
import io.lahar.core.api.Manifest;
import io.lahar.core.api.ManifestException;
import io.lahar.core.api.Manifests;
import io.lahar.core.api.ObjectMeta;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The command gate in front of a Job: parses the manifest, checks that the command fits the
 * job's existence (no second submit, no update of a missing job), runs Volcano's admission, and
 * answers a retried request with its first verdict. Pure: the same record and request always
 * give the same decision.
 */
public final class JobCommands {

    /** What applying a request did to the job. */
    public enum Effect {
        /** Rejected, or nothing to change. */
        NONE,
        /** A retry of a request already decided: its first verdict is repeated, nothing applied. */
        REPLAYED,
        SUBMITTED,
        UPDATED,
        DELETED,
        /** A user action was accepted for the lifecycle engine to carry out. */
        ACTION
    }

    /**
     * The verdict, the record to store next (null: leave the store as it is — a rejected command
     * about a job that does not exist leaves no trace; a deleted job keeps its verdict history so
     * a retried delete is answered alike), and the effect.
     */
    public record Decision(JobVerdict verdict, JobRecord next, Effect effect) {}

    private JobCommands() {}

    public static Decision decide(JobRecord current, JobRequest request, AdmissionContext context) {
        JobRecord record = current == null ? new JobRecord(null, List.of()) : current;
        JobVerdict earlier = record.verdictFor(request.requestId());
        if (earlier != null) {
            return new Decision(earlier, null, Effect.REPLAYED);
        }
        return switch (request.body()) {
            case JobRequest.Submit submit -> submit(record, request, submit.manifest(), context);
            case JobRequest.Update update -> update(record, request, update.manifest(), context);
            case JobRequest.Delete delete ->
                record.exists()
                        ? accepted(record, request, null, Effect.DELETED, List.of())
                        : rejected(record, request, List.of(notFound(request)), List.of());
            case JobRequest.Act act ->
                record.exists()
                        ? accepted(record, request, record.job(), Effect.ACTION, List.of())
                        : rejected(record, request, List.of(notFound(request)), List.of());
        };
    }

    private static Decision submit(JobRecord record, JobRequest request, String manifest, AdmissionContext context) {
        List<Violation> violations = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        Job job = parse(manifest, request, violations, warnings);
        if (record.exists()) {
            violations.add(new Violation("metadata.name", "job \"" + request.key() + "\" already exists"));
        }
        if (job == null || !violations.isEmpty()) {
            return rejected(record, request, violations, warnings);
        }
        AdmissionResult<Job> admitted = JobAdmission.create(identify(job, request), context);
        if (!admitted.accepted()) {
            return rejected(record, request, admitted.violations(), warnings);
        }
        return accepted(
                record,
                request,
                admitted.object().withStatus(pending(admitted.object(), request.time())),
                Effect.SUBMITTED,
                warnings);
    }

    private static Decision update(JobRecord record, JobRequest request, String manifest, AdmissionContext context) {
        List<Violation> violations = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        Job job = parse(manifest, request, violations, warnings);
        if (!record.exists()) {
            violations.add(notFound(request));
        }
        if (job == null || !violations.isEmpty()) {
            return rejected(record, request, violations, warnings);
        }
        Job old = record.job();
        // The stored identity is kept: an update never changes who the job is or when it was made.
        ObjectMeta m = job.metadata();
        Job candidate = job.withMetadata(new ObjectMeta(
                request.name(),
                null,
                request.namespace(),
                old.metadata().uid(),
                null,
                old.metadata().generation() == null ? null : old.metadata().generation() + 1,
                old.metadata().creationTimestamp(),
                null,
                m.labels(),
                m.annotations(),
                m.ownerReferences(),
                m.finalizers()));
        AdmissionResult<Job> admitted = JobAdmission.update(old, candidate, context);
        if (!admitted.accepted()) {
            return rejected(record, request, admitted.violations(), warnings);
        }
        JobStatus status = old.status();
        Job updated = admitted.object()
                .withStatus(new JobStatus(
                        status.state(),
                        admitted.object().spec().minAvailable(),
                        status.taskStatusCount(),
                        status.pending(),
                        status.running(),
                        status.succeeded(),
                        status.failed(),
                        status.terminating(),
                        status.unknown(),
                        status.version(),
                        status.retryCount(),
                        status.runningDuration(),
                        status.controlledResources(),
                        status.conditions()));
        return accepted(record, request, updated, Effect.UPDATED, warnings);
    }

    /**
     * The manifest as a Job whose namespace and name agree with the command's key, or null with the
     * reasons; the fields it drops as unknown are added to {@code warnings}.
     */
    private static Job parse(String manifest, JobRequest request, List<Violation> violations, List<String> warnings) {
        Manifest parsed;
        try {
            Manifests.Reading reading = Manifests.readWithWarnings(manifest);
            parsed = reading.manifest();
            warnings.addAll(reading.warnings());
        } catch (ManifestException e) {
            violations.add(new Violation("manifest", "cannot read the manifest: " + e.getMessage()));
            return null;
        }
        if (!(parsed instanceof Job job)) {
            violations.add(new Violation("kind", "expected a " + Job.API_VERSION + " Job, found " + parsed.kind()));
            return null;
        }
        ObjectMeta meta = job.metadata() == null ? ObjectMeta.named(request.name()) : job.metadata();
        if (meta.namespace() == null || meta.namespace().isEmpty()) {
            meta = meta.withNamespace(request.namespace());
        }
        if (!request.name().equals(meta.name())) {
            violations.add(new Violation(
                    "metadata.name",
                    "\"" + meta.name() + "\" does not match the command's job \"" + request.key() + "\""));
        }
        if (!request.namespace().equals(meta.namespace())) {
            violations.add(new Violation(
                    "metadata.namespace",
                    "\"" + meta.namespace() + "\" does not match the command's job \"" + request.key() + "\""));
        }
        return job.withMetadata(meta);
    }

    /**
     * Gives a new job the identity an API server would: a uid and a creation time. Both derive
     * from the request, so a replay of the commands topic gives the same uid.
     */
    private static Job identify(Job job, JobRequest request) {
        ObjectMeta m = job.metadata();
        String uid = UUID.nameUUIDFromBytes(
                        (request.key() + "/" + request.requestId()).getBytes(StandardCharsets.UTF_8))
                .toString();
        return job.withMetadata(new ObjectMeta(
                m.name(),
                m.generateName(),
                m.namespace(),
                uid,
                null,
                1L,
                Instant.ofEpochMilli(request.time()).toString(),
                null,
                m.labels(),
                m.annotations(),
                m.ownerReferences(),
                m.finalizers()));
    }

    /** The status Volcano's controller gives a job it has just accepted: Pending, nothing running yet. */
    static JobStatus pending(Job job, long time) {
        String now = Instant.ofEpochMilli(time).toString();
        return new JobStatus(
                new JobState(
                        JobPhase.Pending,
                        "JobAccepted",
                        "job admitted into queue \"" + job.spec().queue() + "\"",
                        now),
                job.spec().minAvailable(),
                Map.of(),
                0,
                0,
                0,
                0,
                0,
                0,
                0,
                0,
                null,
                Map.of(),
                List.of(new JobStatus.JobCondition(JobPhase.Pending, now)));
    }

    private static Violation notFound(JobRequest request) {
        return new Violation("metadata.name", "job \"" + request.key() + "\" not found");
    }

    private static Decision accepted(
            JobRecord record, JobRequest request, Job next, Effect effect, List<String> warnings) {
        JobVerdict verdict =
                JobVerdict.accept(request, effect == Effect.ACTION || effect == Effect.DELETED ? null : next, warnings);
        return new Decision(verdict, record.with(next, verdict), effect);
    }

    private static Decision rejected(
            JobRecord record, JobRequest request, List<Violation> violations, List<String> warnings) {
        JobVerdict verdict = JobVerdict.reject(request, violations, warnings);
        JobRecord next = record.exists() ? record.with(record.job(), verdict) : null;
        return new Decision(verdict, next, Effect.NONE);
    }
}
