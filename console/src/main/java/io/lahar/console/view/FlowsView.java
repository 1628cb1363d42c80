package io.lahar.console.view;

import io.lahar.core.api.Flow;
import io.lahar.core.api.JobFlow;
import io.lahar.core.api.Manifests;
import io.lahar.schema.FlowCondition;
import io.lahar.schema.FlowJobStatus;
import io.lahar.schema.JobFlowStatus;
import io.lahar.schema.JobFlowStatusRecord;
import io.lahar.schema.JobRunningHistory;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The latest {@code lahar.flow-status} record of every JobFlow (a tombstone removes it). */
public final class FlowsView {

    private final Map<String, JobFlowStatusRecord> flows = new HashMap<>();
    private final Map<String, Undecodable> undecodable = new HashMap<>();

    /** One line of the flows table: the flow's phase and its jobs per phase. */
    public record FlowRow(
            String key,
            String namespace,
            String name,
            String phase,
            int jobs,
            int pending,
            int running,
            int completed,
            int failed,
            int terminated,
            int unknown,
            long updated,
            String error) {}

    /** One vertex of the DAG: a flow entry, the job it creates and that job's life. */
    public record FlowNode(
            String name,
            String job,
            String phase,
            List<String> targets,
            String strategy,
            Long created,
            Long runningDuration,
            int restartCount,
            String message,
            List<History> histories) {}

    /** A span of time the job spent in one phase (0 = not ended). */
    public record History(String state, long start, long end) {}

    /** A flow with its DAG: the nodes in the manifest's order; each names its targets (edges). */
    public record FlowDetail(FlowRow row, List<FlowNode> nodes, String manifest) {}

    void put(String key, JobFlowStatusRecord r) {
        flows.put(key, r);
        undecodable.remove(key);
    }

    void undecodable(String key, Undecodable u) {
        flows.remove(key);
        undecodable.put(key, u);
    }

    void remove(String key) {
        flows.remove(key);
        undecodable.remove(key);
    }

    List<FlowRow> rows() {
        List<FlowRow> out = new ArrayList<>();
        flows.forEach((key, r) -> out.add(row(key, r)));
        undecodable.forEach((key, u) -> {
            int slash = key.indexOf('/');
            out.add(new FlowRow(
                    key,
                    slash < 0 ? "" : key.substring(0, slash),
                    key.substring(slash + 1),
                    JobRow.UNDECODABLE,
                    0,
                    0,
                    0,
                    0,
                    0,
                    0,
                    0,
                    u.timestamp(),
                    u.error()));
        });
        out.sort(Comparator.comparing(FlowRow::key));
        return out;
    }

    FlowDetail detail(String key) {
        JobFlowStatusRecord r = flows.get(key);
        if (r == null) {
            return null;
        }
        JobFlowStatus s = r.getStatus();
        Map<String, FlowJobStatus> lives = new HashMap<>();
        s.getJobStatusList().forEach(j -> lives.put(j.getName(), j));
        List<FlowNode> nodes = new ArrayList<>();
        for (Flow f : entries(r.getManifest())) {
            String job = r.getName() + "-" + f.name();
            FlowCondition c = s.getConditions().get(job);
            FlowJobStatus life = lives.get(job);
            String phase = c != null ? c.getPhase() : life != null ? life.getState() : "Waiting";
            List<History> histories = new ArrayList<>();
            if (life != null) {
                for (JobRunningHistory h : life.getRunningHistories()) {
                    histories.add(new History(
                            h.getState(),
                            h.getStartTimestamp().toEpochMilli(),
                            h.getEndTimestamp().toEpochMilli()));
                }
            }
            nodes.add(new FlowNode(
                    f.name(),
                    job,
                    phase,
                    f.dependsOn() == null ? List.of() : f.dependsOn().targetsOrEmpty(),
                    f.dependsOn() == null ? null : f.dependsOn().strategy(),
                    c == null || c.getCreateTime() == null
                            ? null
                            : c.getCreateTime().toEpochMilli(),
                    c == null ? null : c.getRunningDuration(),
                    life == null ? 0 : life.getRestartCount(),
                    c == null ? null : c.getMessage(),
                    List.copyOf(histories)));
        }
        return new FlowDetail(row(key, r), nodes, r.getManifest());
    }

    private static List<Flow> entries(String manifest) {
        try {
            JobFlow flow = Manifests.read(manifest, JobFlow.class);
            return flow.spec() == null ? List.of() : flow.spec().flowsOrEmpty();
        } catch (RuntimeException e) {
            return List.of();
        }
    }

    private static FlowRow row(String key, JobFlowStatusRecord r) {
        JobFlowStatus s = r.getStatus();
        int jobs = s.getJobStatusList().size();
        return new FlowRow(
                key,
                r.getNamespace(),
                r.getName(),
                s.getState().getPhase(),
                jobs,
                s.getPendingJobs().size(),
                s.getRunningJobs().size(),
                s.getCompletedJobs().size(),
                s.getFailedJobs().size(),
                s.getTerminatedJobs().size(),
                s.getUnKnowJobs().size(),
                r.getTime().toEpochMilli(),
                null);
    }
}
