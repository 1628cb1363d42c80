package io.lahar.core.command;

import io.lahar.core.admission.Violation;
import io.lahar.core.api.Job;

import java.util.List;

/**
 * The answer to one {@link JobRequest}: accepted (with the admitted, defaulted Job for a submit
 * or update), or rejected with every reason. Kept per job so that a retried request gets the
 * same answer without being applied twice.
 */
public record JobVerdict(String requestId, String kind, boolean accepted, List<Violation> violations, Job admitted, long time) {

    public JobVerdict {
        violations = violations == null ? List.of() : List.copyOf(violations);
    }

    static JobVerdict accept(JobRequest request, Job admitted) {
        return new JobVerdict(request.requestId(), request.kind(), true, List.of(), admitted, request.time());
    }

    static JobVerdict reject(JobRequest request, List<Violation> violations) {
        return new JobVerdict(request.requestId(), request.kind(), false, violations, null, request.time());
    }
}
