package io.lahar.streams.flow;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.lahar.core.admission.Violation;
import io.lahar.schema.CommandResult;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The answer given to one flow or CronJob command, kept with the object it concerns so that a command sent
 * again with the same requestId (a client retrying after a timeout) is answered alike and applied once.
 *
 * @param manifest the admitted manifest as JSON when accepted, else null
 * @param warnings the fields its manifest held that were dropped as unknown
 */
public record FlowVerdict(
        String requestId,
        String kind,
        boolean accepted,
        List<Violation> violations,
        String manifest,
        String sender,
        long time,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> warnings) {

    /** How many answers an object remembers: enough for any client's retries, bounded so the entry stays small. */
    static final int RECENT_LIMIT = 16;

    public FlowVerdict {
        violations = violations == null ? List.of() : List.copyOf(violations);
        warnings = warnings == null ? List.of() : List.copyOf(warnings);
    }

    /** An answer without warnings. */
    public FlowVerdict(
            String requestId,
            String kind,
            boolean accepted,
            List<Violation> violations,
            String manifest,
            String sender,
            long time) {
        this(requestId, kind, accepted, violations, manifest, sender, time, List.of());
    }

    public FlowVerdict withWarnings(List<String> next) {
        return new FlowVerdict(requestId, kind, accepted, violations, manifest, sender, time, next);
    }

    public static FlowVerdict rejected(
            String requestId, String kind, List<Violation> violations, String sender, long time) {
        return new FlowVerdict(requestId, kind, false, violations, null, sender, time);
    }

    public static FlowVerdict accepted(String requestId, String kind, String manifest, String sender, long time) {
        return new FlowVerdict(requestId, kind, true, List.of(), manifest, sender, time);
    }

    public CommandResult toResult(String namespace, String name) {
        return CommandResult.newBuilder()
                .setRequestId(requestId)
                .setNamespace(namespace)
                .setName(name)
                .setKind(kind)
                .setAccepted(accepted)
                .setViolations(violations.stream()
                        .map(v -> new io.lahar.schema.Violation(v.path(), v.message()))
                        .toList())
                .setManifest(manifest)
                .setSender(sender)
                .setTime(Instant.ofEpochMilli(time))
                .setWarnings(warnings)
                .build();
    }

    /** {@code recent} with {@code verdict} added, the oldest forgotten past {@link #RECENT_LIMIT}. */
    public static List<FlowVerdict> remember(List<FlowVerdict> recent, FlowVerdict verdict) {
        List<FlowVerdict> next = new ArrayList<>(recent == null ? List.of() : recent);
        next.add(verdict);
        return next.size() > RECENT_LIMIT
                ? List.copyOf(next.subList(next.size() - RECENT_LIMIT, next.size()))
                : List.copyOf(next);
    }

    public static FlowVerdict find(List<FlowVerdict> recent, String requestId) {
        if (recent == null) {
            return null;
        }
        for (FlowVerdict v : recent) {
            if (v.requestId().equals(requestId)) {
                return v;
            }
        }
        return null;
    }
}
