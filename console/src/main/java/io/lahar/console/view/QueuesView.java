package io.lahar.console.view;

import io.lahar.schema.Queue;
import io.lahar.schema.QueueStatus;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Queues as configured ({@code lahar.queues}: weight, capability, guarantee, parent) beside what
 * the scheduler last computed for them ({@code lahar.queue-status}: pod groups by phase, allocated,
 * deserved). The two topics have different writers; a queue appears once either has it.
 */
public final class QueuesView {

    private final Map<String, Queue> configs = new HashMap<>();
    private final Map<String, QueueStatus> statuses = new HashMap<>();

    /**
     * One queue. Amounts are in one unit per resource ({@link Amounts}); {@code deserved} is the
     * scheduler's, else the configured one. {@code podGroups} counts the queue's pod groups per
     * phase as the scheduler last saw them; {@code jobs} its jobs per phase from {@code lahar.job-status};
     * {@code unschedulable} its pending pod groups per Unschedulable reason.
     */
    public record QueueRow(
            String name,
            String parent,
            String state,
            Integer weight,
            Integer priority,
            Boolean reclaimable,
            Map<String, Amounts.Amount> capability,
            Map<String, Amounts.Amount> guarantee,
            Map<String, Amounts.Amount> deserved,
            Map<String, Amounts.Amount> allocated,
            Map<String, Integer> podGroups,
            Map<String, Integer> jobs,
            Map<String, Integer> unschedulable,
            boolean configured,
            Long updated,
            Map<String, Long> entered) {}

    void putConfig(String name, Queue q) {
        configs.put(name, q);
    }

    void removeConfig(String name) {
        configs.remove(name);
    }

    void putStatus(String name, QueueStatus s) {
        statuses.put(name, s);
    }

    void removeStatus(String name) {
        statuses.remove(name);
    }

    /** Cumulative pod groups entering each phase, as the scheduler counts them on the record. */
    private static Map<String, Long> entered(QueueStatus s) {
        Map<String, Long> out = new TreeMap<>();
        if (s != null) {
            s.getEntered().forEach((phase, n) -> out.put(phase.toString(), n));
        }
        return out;
    }

    List<QueueRow> rows(
            Map<String, Map<String, Integer>> jobsByQueue, Map<String, Map<String, Integer>> unschedulable) {
        TreeSet<String> names = new TreeSet<>(configs.keySet());
        names.addAll(statuses.keySet());
        List<QueueRow> out = new ArrayList<>();
        for (String name : names) {
            Queue q = configs.get(name);
            QueueStatus s = statuses.get(name);
            Map<String, Integer> groups = new TreeMap<>();
            if (s != null) {
                groups.put("Pending", s.getPending());
                groups.put("Inqueue", s.getInqueue());
                groups.put("Running", s.getRunning());
                groups.put("Completed", s.getCompleted());
                groups.put("Unknown", s.getUnknown());
            }
            Map<String, Amounts.Amount> deserved = s != null && !s.getDeserved().isEmpty()
                    ? Amounts.of(s.getDeserved())
                    : q == null ? Map.of() : Amounts.of(q.getDeserved());
            String state =
                    s != null ? s.getState().name() : q != null ? q.getState().name() : null;
            Long updated = s != null
                    ? Long.valueOf(s.getTime().toEpochMilli())
                    : q != null ? q.getTime().toEpochMilli() : null;
            out.add(new QueueRow(
                    name,
                    q == null ? null : q.getParent(),
                    state,
                    q == null ? null : q.getWeight(),
                    q == null ? null : q.getPriority(),
                    q == null ? null : q.getReclaimable(),
                    q == null ? Map.of() : Amounts.of(q.getCapability()),
                    q == null ? Map.of() : Amounts.of(q.getGuarantee()),
                    deserved,
                    s == null ? Map.of() : Amounts.of(s.getAllocated()),
                    groups,
                    jobsByQueue.getOrDefault(name, Map.of()),
                    unschedulable.getOrDefault(name, Map.of()),
                    q != null,
                    updated,
                    entered(s)));
        }
        return out;
    }
}
