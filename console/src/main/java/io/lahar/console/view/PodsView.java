package io.lahar.console.view;

import io.lahar.schema.ContainerStatus;
import io.lahar.schema.PodEvent;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Each job's pods as the latest {@code lahar.pod-events} record of each pod name says (node,
 * phase, restarts, exit codes), at most {@code perJob} pods per job and {@code jobs} jobs, the jobs
 * written to longest ago forgotten first. The node of a pod is on no compacted topic: this log is
 * where the console learns it.
 */
public final class PodsView {

    /** One pod. {@code restarts} sums its containers' in-place restarts. */
    public record PodRow(
            String pod,
            String task,
            int index,
            String phase,
            String node,
            int restarts,
            List<String> exitCodes,
            String reason,
            String message,
            int version,
            String jobUid,
            boolean deleted,
            long time) {

        static PodRow of(PodEvent e) {
            int restarts = 0;
            List<String> exits = new ArrayList<>();
            for (ContainerStatus c : e.getContainers()) {
                restarts += c.getRestartCount();
                if (c.getExitCode() != null) {
                    exits.add(c.getName() + "=" + c.getExitCode()
                            + (c.getReason() == null ? "" : " (" + c.getReason() + ")"));
                }
            }
            return new PodRow(
                    e.getPod(),
                    e.getTask(),
                    e.getIndex(),
                    e.getPhase(),
                    e.getNode(),
                    restarts,
                    List.copyOf(exits),
                    e.getReason(),
                    e.getMessage(),
                    e.getJobVersion(),
                    e.getJobUid(),
                    e.getDeleted(),
                    e.getTime().toEpochMilli());
        }

        /** Whether the pod holds its node's resources: bound and not finished or gone. */
        boolean holdsNode() {
            return node != null
                    && !deleted
                    && ("Pending".equals(phase) || "Running".equals(phase) || "Unknown".equals(phase));
        }
    }

    private final int perJob;
    private final Map<String, Map<String, PodRow>> byJob;

    PodsView(int perJob, int jobs) {
        this.perJob = perJob;
        this.byJob = new LinkedHashMap<>() {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Map<String, PodRow>> eldest) {
                return size() > jobs;
            }
        };
    }

    void add(String key, PodEvent e) {
        Map<String, PodRow> pods = byJob.remove(key);
        if (pods == null) {
            pods = new LinkedHashMap<>();
        }
        byJob.put(key, pods);
        if (pods.size() >= perJob && !pods.containsKey(e.getPod())) {
            return;
        }
        pods.put(e.getPod(), PodRow.of(e));
    }

    void remove(String key) {
        byJob.remove(key);
    }

    /** The job's pods of its incarnation {@code jobUid} (every pod when null), by task and index. */
    List<PodRow> of(String key, String jobUid) {
        Map<String, PodRow> pods = byJob.get(key);
        if (pods == null) {
            return List.of();
        }
        List<PodRow> out = new ArrayList<>();
        for (PodRow p : pods.values()) {
            if (jobUid == null || p.jobUid() == null || jobUid.equals(p.jobUid())) {
                out.add(p);
            }
        }
        out.sort(java.util.Comparator.comparing(PodRow::task).thenComparingInt(PodRow::index));
        return out;
    }

    Collection<Map.Entry<String, Map<String, PodRow>>> all() {
        return byJob.entrySet();
    }
}
