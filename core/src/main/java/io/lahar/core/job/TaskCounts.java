package io.lahar.core.job;

import io.lahar.core.api.JobStatus;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Volcano's TaskStatusCount while a run counts pods: per task, pods per phase in an array
 * (a recount runs on every pod event), turned into the status's sorted maps once, at the end of
 * the run. A task appears once one of its pods is counted, and a phase once it has a pod, as
 * Volcano's map increments make them appear.
 */
final class TaskCounts {

    private static final PodPhase[] PHASES = PodPhase.values();

    private final Map<String, int[]> byTask = new HashMap<>(4);

    /**
     * The counts a stored status holds: its tasks (one without a phase map counted with none) and
     * the pod phases the engine counts.
     */
    static TaskCounts of(Map<String, JobStatus.TaskState> stored) {
        TaskCounts counts = new TaskCounts();
        if (stored != null) {
            stored.forEach((task, state) -> {
                int[] n = counts.byTask.computeIfAbsent(task, t -> new int[PHASES.length]);
                if (state != null && state.phase() != null) {
                    state.phase()
                            .forEach((phase, count) ->
                                    PodPhase.of(phase).ifPresent(p -> n[p.ordinal()] += count == null ? 0 : count));
                }
            });
        }
        return counts;
    }

    void add(String task, PodPhase phase) {
        add(task, phase, 1);
    }

    /** Counts {@code n} (at least 1) pods of {@code task} in {@code phase}. */
    void add(String task, PodPhase phase, int n) {
        byTask.computeIfAbsent(task, t -> new int[PHASES.length])[phase.ordinal()] += n;
    }

    /** Whether {@code task} has counts (a pod of it was counted). */
    boolean counted(String task) {
        return byTask.containsKey(task);
    }

    int count(String task, PodPhase phase) {
        int[] n = byTask.get(task);
        return n == null ? 0 : n[phase.ordinal()];
    }

    /** The status's {@code taskStatusCount}: tasks and phase names sorted, so replay gives it byte for byte. */
    Map<String, JobStatus.TaskState> toStatus() {
        TreeMap<String, JobStatus.TaskState> out = new TreeMap<>();
        byTask.forEach((task, n) -> {
            TreeMap<String, Integer> phases = new TreeMap<>();
            for (PodPhase p : PHASES) {
                if (n[p.ordinal()] > 0) {
                    phases.put(p.name(), n[p.ordinal()]);
                }
            }
            out.put(task, new JobStatus.TaskState(phases));
        });
        return out;
    }
}
