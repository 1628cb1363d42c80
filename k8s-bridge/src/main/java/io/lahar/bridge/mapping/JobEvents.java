package io.lahar.bridge.mapping;

import io.fabric8.kubernetes.api.model.Event;
import io.lahar.schema.JobState;
import io.lahar.schema.JobStatusRecord;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A job's important transitions as Events on its Volcano Job CR, so {@code kubectl describe vcjob}
 * and {@code kubectl get events} tell its story as on Volcano: each change of phase (reason: the new
 * phase; message: from which phase, why), and a Pending job that waits for the scheduler as
 * Volcano's {@code Warning PodGroupPending}. Derived from the status the CR had and the one the
 * engine reports; named after the job's UID, phase, reason and transition time, so a status read
 * again creates nothing new.
 */
public final class JobEvents {

    /** Phases that say something went wrong or was stopped. */
    private static final Set<String> WARNING_PHASES =
            Set.of("Restarting", "Aborting", "Aborted", "Terminating", "Terminated", "Failed");
    /** Pending reasons that are progress (the gang is admitted), not a wait on the scheduler. */
    private static final Set<String> PROGRESS = Set.of("CreatingPods", "StartingPods");

    private JobEvents() {}

    /**
     * @param before the CR's status until now (Volcano's JobStatus as JSON), null for a new CR
     * @param crUid  the Job CR's UID, so the Event is found by {@code kubectl describe}
     */
    public static Optional<Event> transition(JobStatusRecord record, Object before, String crUid) {
        JobState state = record.getStatus().getState();
        String phase = state.getPhase();
        String phaseBefore = text(before, "phase");
        String reason = state.getReason();
        Instant at = state.getLastTransitionTime() != null ? state.getLastTransitionTime() : record.getTime();
        String seed = "job-status:" + record.getUid() + ":" + phase + ":" + reason + ":" + at.toEpochMilli();
        if (!phase.equals(phaseBefore)) {
            String message = (phaseBefore == null ? "" : phaseBefore + " → ")
                    + phase
                    + (reason == null ? "" : " (" + reason + ")")
                    + (state.getMessage() == null ? "" : ": " + state.getMessage());
            return Optional.of(event(record, seed, crUid, WARNING_PHASES.contains(phase), phase, message, at));
        }
        if ("Pending".equals(phase)
                && reason != null
                && !PROGRESS.contains(reason)
                && !reason.equals(text(before, "reason"))) {
            // Volcano's job controller: "PodGroup <ns>:<name> unschedulable, reason: <condition message>".
            String message = "PodGroup " + record.getNamespace() + ":" + record.getName() + " unschedulable, reason: "
                    + (state.getMessage() == null ? reason : reason + ": " + state.getMessage());
            return Optional.of(event(record, seed, crUid, true, "PodGroupPending", message, at));
        }
        return Optional.empty();
    }

    private static Event event(
            JobStatusRecord record,
            String seed,
            String crUid,
            boolean warning,
            String reason,
            String message,
            Instant at) {
        return CommandEvents.event(
                record.getNamespace(),
                record.getName(),
                seed,
                VolcanoKinds.BATCH_API_VERSION,
                "Job",
                crUid,
                warning ? "Warning" : "Normal",
                reason,
                message,
                at);
    }

    private static String text(Object status, String field) {
        return status instanceof Map<?, ?> s && s.get("state") instanceof Map<?, ?> state && state.get(field) != null
                ? state.get(field).toString()
                : null;
    }
}
