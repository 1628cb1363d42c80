package io.lahar.streams.job;

import io.lahar.core.api.PodGroup;
import io.lahar.core.command.JobVerdict;
import io.lahar.core.job.JobInfo;
import java.util.List;

/**
 * What the {@code jobs} store keeps per job key: the command gate's recent verdicts (so retries
 * are answered, not re-applied), the engine's {@link JobInfo} (job, status, pods, timers, pod
 * group), the newest scheduler epoch seen (older decisions are dropped) and the scheduler's last
 * conditions on the pod group. The admitted job is kept once, in {@code info}: the gate's view is
 * derived from it.
 */
public record JobEntry(
        List<JobVerdict> recent,
        JobInfo info,
        long schedulerEpoch,
        List<PodGroup.PodGroupCondition> podGroupConditions) {

    public JobEntry {
        recent = recent == null ? List.of() : List.copyOf(recent);
        info = info == null ? JobInfo.empty() : info;
        podGroupConditions = podGroupConditions == null ? List.of() : List.copyOf(podGroupConditions);
    }

    public static JobEntry empty() {
        return new JobEntry(List.of(), JobInfo.empty(), 0, List.of());
    }

    /** The job exists for the command gate: submitted and not deleted. */
    public boolean live() {
        return info.live();
    }

    public JobEntry withRecent(List<JobVerdict> next) {
        return new JobEntry(next, info, schedulerEpoch, podGroupConditions);
    }

    public JobEntry withInfo(JobInfo next) {
        return new JobEntry(recent, next, schedulerEpoch, podGroupConditions);
    }

    public JobEntry withScheduler(long epoch, List<PodGroup.PodGroupCondition> conditions) {
        return new JobEntry(recent, info, epoch, conditions);
    }
}
