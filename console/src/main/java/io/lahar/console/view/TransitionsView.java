package io.lahar.console.view;

import io.lahar.schema.JobTransition;
import java.util.ArrayDeque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The latest transitions of each job from {@code lahar.job-transitions} (a log: the console reads
 * it from the oldest record kept), at most {@code perJob} per job and {@code jobs} jobs, the jobs
 * written to longest ago forgotten first.
 */
public final class TransitionsView {

    /**
     * One transition: what {@code lahar replay --explain} prints for it. {@code source} is the input
     * record that caused it ({@code topic/partition@offset}).
     */
    public record TransitionRow(
            String from,
            String to,
            String event,
            String action,
            String policy,
            String reason,
            String message,
            int version,
            int retryCount,
            long time,
            String source,
            String position) {

        static TransitionRow of(JobTransition t, String position) {
            return new TransitionRow(
                    JobRow.text(t.getFrom()),
                    t.getTo(),
                    t.getEvent(),
                    JobRow.text(t.getAction()),
                    JobRow.text(t.getPolicy()),
                    JobRow.text(t.getReason()),
                    JobRow.text(t.getMessage()),
                    t.getVersion(),
                    t.getRetryCount(),
                    t.getTime().toEpochMilli(),
                    t.getSourceTopic() + "/" + t.getSourcePartition() + "@" + t.getSourceOffset(),
                    position);
        }
    }

    private final int perJob;
    private final Map<String, ArrayDeque<TransitionRow>> byJob;

    TransitionsView(int perJob, int jobs) {
        this.perJob = perJob;
        this.byJob = new LinkedHashMap<>() {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, ArrayDeque<TransitionRow>> eldest) {
                return size() > jobs;
            }
        };
    }

    void add(String key, JobTransition t, String position) {
        // Taken out and put back so the map's order is by last write (readers never reorder it).
        ArrayDeque<TransitionRow> rows = byJob.remove(key);
        if (rows == null) {
            rows = new ArrayDeque<>();
        }
        byJob.put(key, rows);
        rows.addLast(TransitionRow.of(t, position));
        while (rows.size() > perJob) {
            rows.removeFirst();
        }
    }

    void remove(String key) {
        byJob.remove(key);
    }

    /** Oldest first. */
    List<TransitionRow> of(String key) {
        ArrayDeque<TransitionRow> rows = byJob.get(key);
        return rows == null ? List.of() : List.copyOf(rows);
    }
}
