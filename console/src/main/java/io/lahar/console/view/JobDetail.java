package io.lahar.console.view;

import io.lahar.schema.JobCondition;
import io.lahar.schema.JobStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A job's page: its row, Volcano's status (null for an undecodable record), the admitted manifest
 * (JSON), its pods, its latest transitions (oldest first) and its pod group.
 */
public record JobDetail(
        JobRow row,
        Status status,
        String manifest,
        List<PodsView.PodRow> pods,
        List<TransitionsView.TransitionRow> transitions,
        PodGroupsView.PodGroupRow podGroup) {

    /** Volcano's JobStatus fields a reader looks at, times in epoch milliseconds. */
    public record Status(
            Map<String, Map<String, Integer>> taskStatusCount,
            List<Condition> conditions,
            Map<String, String> controlledResources) {

        static Status of(JobStatus s) {
            Map<String, Map<String, Integer>> tasks = new TreeMap<>();
            s.getTaskStatusCount().forEach((task, state) -> tasks.put(task, new TreeMap<>(state.getPhase())));
            List<Condition> conditions = new ArrayList<>();
            for (JobCondition c : s.getConditions()) {
                conditions.add(
                        new Condition(c.getStatus(), c.getLastTransitionTime().toEpochMilli()));
            }
            return new Status(tasks, List.copyOf(conditions), new TreeMap<>(s.getControlledResources()));
        }
    }

    /** A phase the job entered and when. */
    public record Condition(String status, long time) {}
}
