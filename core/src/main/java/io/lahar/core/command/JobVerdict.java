package io.lahar.core.command;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.lahar.core.admission.Violation;
import io.lahar.core.api.Job;
import java.util.List;

/**
 * The answer to one {@link JobRequest}: accepted (with the admitted, defaulted Job for a submit
 * or update), or rejected with every reason; either way the warnings reading its manifest gave
 * (fields dropped as unknown). Kept per job so that a retried request gets the same answer
 * without being applied twice.
 */
public record JobVerdict(
        String requestId,
        String kind,
        boolean accepted,
        List<Violation> violations,
        Job admitted,
        long time,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> warnings) {

    public JobVerdict {
        violations = violations == null ? List.of() : List.copyOf(violations);
        warnings = warnings == null ? List.of() : List.copyOf(warnings);
    }

    /** A verdict without warnings. */
    public JobVerdict(
            String requestId, String kind, boolean accepted, List<Violation> violations, Job admitted, long time) {
        this(requestId, kind, accepted, violations, admitted, time, List.of());
    }

    static JobVerdict accept(JobRequest request, Job admitted, List<String> warnings) {
        return new JobVerdict(request.requestId(), request.kind(), true, List.of(), admitted, request.time(), warnings);
    }

    static JobVerdict reject(JobRequest request, List<Violation> violations, List<String> warnings) {
        return new JobVerdict(request.requestId(), request.kind(), false, violations, null, request.time(), warnings);
    }
}
