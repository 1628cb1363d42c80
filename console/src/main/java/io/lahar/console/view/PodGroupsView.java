package io.lahar.console.view;

import io.lahar.schema.PodGroup;
import io.lahar.schema.PodGroupCondition;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The latest {@code lahar.pod-groups} record of every job (a tombstone removes it). */
public final class PodGroupsView {

    /** A job's pod group: its phase, gang size, queue and the scheduler's conditions. */
    public record PodGroupRow(
            String name,
            String queue,
            String phase,
            int minMember,
            int jobVersion,
            Map<String, Amounts.Amount> minResources,
            List<ConditionRow> conditions,
            long created) {}

    /** One scheduling condition, e.g. Unschedulable with its reason and message. */
    public record ConditionRow(String type, String status, String reason, String message, long time) {}

    private final Map<String, PodGroupRow> groups = new HashMap<>();

    void put(String key, PodGroup g) {
        List<ConditionRow> conditions = new ArrayList<>();
        for (PodGroupCondition c : g.getStatus().getConditions()) {
            conditions.add(new ConditionRow(
                    c.getType(),
                    c.getStatus(),
                    c.getReason(),
                    c.getMessage(),
                    c.getLastTransitionTime().toEpochMilli()));
        }
        groups.put(
                key,
                new PodGroupRow(
                        g.getName(),
                        g.getSpec().getQueue(),
                        g.getStatus().getPhase(),
                        g.getSpec().getMinMember(),
                        g.getJobVersion(),
                        Amounts.of(g.getSpec().getMinResources()),
                        List.copyOf(conditions),
                        g.getCreationTimestamp().toEpochMilli()));
    }

    void remove(String key) {
        groups.remove(key);
    }

    PodGroupRow get(String key) {
        return groups.get(key);
    }

    /** Queue → reason → how many of its pod groups are Unschedulable for it now. */
    Map<String, Map<String, Integer>> unschedulableByQueue() {
        Map<String, Map<String, Integer>> out = new TreeMap<>();
        for (PodGroupRow g : groups.values()) {
            String reason = unschedulableReason(g);
            if (reason != null) {
                out.computeIfAbsent(g.queue(), q -> new TreeMap<>()).merge(reason, 1, Integer::sum);
            }
        }
        return out;
    }

    /** The reason of the group's Unschedulable condition while it is not running, or null. */
    static String unschedulableReason(PodGroupRow g) {
        if ("Running".equals(g.phase()) || "Completed".equals(g.phase())) {
            return null;
        }
        for (ConditionRow c : g.conditions()) {
            if ("Unschedulable".equals(c.type()) && "True".equals(c.status())) {
                return c.reason() == null ? "Unschedulable" : c.reason();
            }
        }
        return null;
    }
}
