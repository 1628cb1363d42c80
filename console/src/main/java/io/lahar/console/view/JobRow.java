package io.lahar.console.view;

import io.lahar.schema.JobCondition;
import io.lahar.schema.JobStatus;
import io.lahar.schema.JobStatusRecord;
import java.time.Instant;

/**
 * One line of the jobs table. Times are epoch milliseconds. {@code runningSince} is when the job
 * last entered Running (from its Running condition), so a running job's duration is known before
 * {@code runningDuration} is (that is written when it finishes). {@code error} is set only for a
 * record the console could not decode, whose other fields are then empty.
 */
public record JobRow(
        String key,
        String namespace,
        String name,
        String queue,
        String phase,
        String reason,
        String message,
        int pending,
        int running,
        int succeeded,
        int failed,
        int terminating,
        int unknown,
        int replicas,
        int minAvailable,
        int retryCount,
        Integer maxRetry,
        int version,
        Long created,
        Long lastTransition,
        Long runningSince,
        Long runningDuration,
        String flow,
        long updated,
        String error) {

    static final String UNDECODABLE = "Undecodable";

    static JobRow of(String key, JobStatusRecord r, JobSpecFacts facts) {
        JobStatus s = r.getStatus();
        Long created = null;
        Long runningSince = null;
        for (JobCondition c : s.getConditions()) {
            long t = c.getLastTransitionTime().toEpochMilli();
            created = created == null ? t : Math.min(created, t);
            if ("Running".equals(c.getStatus().toString())) {
                runningSince = t;
            }
        }
        String phase = s.getState().getPhase().toString();
        if (!"Running".equals(phase)) {
            runningSince = s.getRunningDuration() == null ? runningSince : null;
        }
        return new JobRow(
                key,
                r.getNamespace().toString(),
                r.getName().toString(),
                r.getQueue().toString(),
                phase,
                text(s.getState().getReason()),
                text(s.getState().getMessage()),
                s.getPending(),
                s.getRunning(),
                s.getSucceeded(),
                s.getFailed(),
                s.getTerminating(),
                s.getUnknown(),
                facts.replicas(),
                s.getMinAvailable(),
                s.getRetryCount(),
                facts.maxRetry(),
                s.getVersion(),
                created,
                millis(s.getState().getLastTransitionTime()),
                runningSince,
                s.getRunningDuration(),
                facts.flow(),
                r.getTime().toEpochMilli(),
                null);
    }

    static JobRow undecodable(String key, Undecodable u) {
        int slash = key.indexOf('/');
        String ns = slash < 0 ? "" : key.substring(0, slash);
        String name = slash < 0 ? key : key.substring(slash + 1);
        String error = u.deadLetter() == null ? u.error() : u.error() + " (dead letter: " + u.deadLetter() + ")";
        return new JobRow(
                key,
                ns,
                name,
                "",
                UNDECODABLE,
                null,
                null,
                0,
                0,
                0,
                0,
                0,
                0,
                0,
                0,
                0,
                null,
                0,
                null,
                null,
                null,
                null,
                null,
                u.timestamp(),
                error);
    }

    boolean matches(String text) {
        return contains(key, text)
                || contains(queue, text)
                || contains(reason, text)
                || contains(message, text)
                || contains(flow, text)
                || contains(error, text);
    }

    private static boolean contains(String field, String text) {
        return field != null && field.toLowerCase(java.util.Locale.ROOT).contains(text);
    }

    static String text(CharSequence s) {
        return s == null ? null : s.toString();
    }

    private static Long millis(Instant t) {
        return t == null ? null : t.toEpochMilli();
    }
}
