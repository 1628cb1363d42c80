package io.lahar.core.flow;

import io.lahar.core.api.JobFlow;
import io.lahar.core.api.JobFlow.Condition;
import io.lahar.core.api.JobFlow.JobStatusEntry;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Volcano's getAllJobStatus: the flow's jobs grouped by phase (Completing counts as completed,
 * Terminating as terminated, phases without a list as unknown), one jobStatusList entry per job
 * ever created, and a condition per flow entry, {@code Waiting} for jobs not created yet (plus
 * Lahar's {@code Backoff} and {@code Skipped}).
 */
public final class FlowStatuses {

    private FlowStatuses() {}

    public static JobFlow.JobFlowStatus of(FlowInfo info) {
        List<String> pending = new ArrayList<>();
        List<String> running = new ArrayList<>();
        List<String> failed = new ArrayList<>();
        List<String> completed = new ArrayList<>();
        List<String> terminated = new ArrayList<>();
        List<String> unknown = new ArrayList<>();
        List<JobStatusEntry> list = new ArrayList<>();
        Map<String, Condition> conditions = new LinkedHashMap<>();
        for (FlowJob j : info.jobs().values()) {
            if (j.state() == EntryState.Created) {
                switch (j.phaseOrPending()) {
                    case Pending -> pending.add(j.name());
                    case Running -> running.add(j.name());
                    case Completing, Completed -> completed.add(j.name());
                    case Terminating, Terminated -> terminated.add(j.name());
                    case Failed -> failed.add(j.name());
                    default -> unknown.add(j.name());
                }
            }
            if (j.createdAt() != null) {
                list.add(new JobStatusEntry(
                        j.name(),
                        j.phaseOrPending().name(),
                        FlowJobs.timestamp(j.createdAt()),
                        j.endedAt() == null ? null : FlowJobs.timestamp(j.endedAt()),
                        j.retries() + j.jobRetryCount(),
                        j.runningHistories()));
            }
            conditions.put(j.name(), condition(j, info.time()));
        }
        return new JobFlow.JobFlowStatus(
                pending,
                running,
                failed,
                completed,
                terminated,
                unknown,
                list,
                conditions,
                info.phase() == null ? null : new JobFlow.State(info.phase()));
    }

    private static Condition condition(FlowJob j, long now) {
        return switch (j.state()) {
            case Waiting, Skipped -> new Condition(j.state().name(), null, null, null, null);
            // A retry after a rejection keeps saying why, until the job is created again.
            case Backoff -> new Condition(j.state().name(), null, null, null, j.message());
            case Created ->
                new Condition(
                        j.phaseOrPending().name(),
                        FlowJobs.timestamp(j.createdAt()),
                        FlowJobs.goDuration((j.endedAt() == null ? now : j.endedAt()) - j.createdAt()),
                        j.taskStatusCount().isEmpty() ? null : j.taskStatusCount(),
                        j.message());
        };
    }
}
