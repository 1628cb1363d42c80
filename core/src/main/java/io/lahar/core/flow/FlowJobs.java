package io.lahar.core.flow;

import io.lahar.core.api.GoDuration;
import io.lahar.core.api.JobFlow.JobRunningHistory;
import io.lahar.core.api.JobPhase;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/** Small shared rules about a flow's jobs: which phases end a job, how time and history are written. */
final class FlowJobs {

    /**
     * The phases a job never leaves (Volcano's finished state). Aborted is not one of them: an
     * aborted job can be resumed, so the seed files it under unKnowJobs and the flow goes on
     * waiting for it.
     */
    static final Set<JobPhase> ENDED = EnumSet.of(JobPhase.Completed, JobPhase.Failed, JobPhase.Terminated);

    private FlowJobs() {}

    /** RFC 3339, as Kubernetes writes metav1.Time; computed from event time, never the clock. */
    static String timestamp(long epochMillis) {
        return Instant.ofEpochMilli(epochMillis).toString();
    }

    /** The history with a new phase appended at {@code time}: the open entry is closed, the oldest dropped past the cap. */
    static List<JobRunningHistory> append(List<JobRunningHistory> histories, JobPhase phase, long time) {
        List<JobRunningHistory> out = new ArrayList<>(histories);
        if (!out.isEmpty()) {
            JobRunningHistory last = out.get(out.size() - 1);
            if (last.state().equals(phase.name()) && last.endTimestamp() == null) {
                return histories;
            }
            if (last.endTimestamp() == null) {
                out.set(out.size() - 1, new JobRunningHistory(last.startTimestamp(), timestamp(time), last.state()));
            }
        }
        out.add(new JobRunningHistory(timestamp(time), null, phase.name()));
        while (out.size() > FlowJob.MAX_HISTORIES) {
            out.remove(0);
        }
        return List.copyOf(out);
    }

    /** Closes the open history entry (the job was deleted). */
    static List<JobRunningHistory> close(List<JobRunningHistory> histories, long time) {
        if (histories.isEmpty() || histories.get(histories.size() - 1).endTimestamp() != null) {
            return histories;
        }
        List<JobRunningHistory> out = new ArrayList<>(histories);
        JobRunningHistory last = out.get(out.size() - 1);
        out.set(out.size() - 1, new JobRunningHistory(last.startTimestamp(), timestamp(time), last.state()));
        return List.copyOf(out);
    }

    /** A Go duration as metav1.Duration prints it ("1h2m3s", "1.5s"); "0s" for none or a negative span. */
    static String goDuration(long millis) {
        return GoDuration.format(Math.max(0, millis));
    }
}
