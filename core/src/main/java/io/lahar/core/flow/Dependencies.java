package io.lahar.core.flow;

import io.lahar.core.api.DependsOn;
import io.lahar.core.api.Flow;
import io.lahar.core.api.JobPhase;
import io.lahar.core.api.Probe;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Volcano's {@code judge}, extended: whether a flow entry's job may be created now. A target
 * holds when its job Completed (Volcano), reached the task phases of a taskStatus probe, or, with
 * Lahar's {@code when}, reached one of the listed phases. Strategy {@code all} needs every
 * target, {@code any} one. An entry whose dependency can never hold any more (a target skipped,
 * or ended otherwise) is skipped, so the flow can tell "done" from "still waiting".
 */
public final class Dependencies {

    /** What to do with a waiting entry. */
    public enum Verdict {
        RUN,
        WAIT,
        SKIP
    }

    /** Where one target stands for one dependent entry. */
    enum Target {
        HOLDS,
        PENDING,
        NEVER
    }

    private Dependencies() {}

    public static Verdict judge(Flow entry, Map<String, FlowJob> jobs) {
        DependsOn d = entry.dependsOn();
        if (d == null || d.targetsOrEmpty().isEmpty()) {
            return Verdict.RUN;
        }
        boolean any = DependsOn.ANY.equals(d.strategy());
        int holds = 0;
        int never = 0;
        for (String t : d.targetsOrEmpty()) {
            switch (target(entry, jobs.get(t))) {
                case HOLDS -> holds++;
                case NEVER -> never++;
                case PENDING -> {}
            }
        }
        int n = d.targetsOrEmpty().size();
        if (any) {
            return holds > 0 ? Verdict.RUN : never == n ? Verdict.SKIP : Verdict.WAIT;
        }
        return holds == n ? Verdict.RUN : never > 0 ? Verdict.SKIP : Verdict.WAIT;
    }

    static Target target(Flow entry, FlowJob target) {
        if (target == null || target.state() == EntryState.Skipped) {
            return Target.NEVER;
        }
        if (target.state() != EntryState.Created) {
            return Target.PENDING;
        }
        List<String> probes = probeConditions(entry.dependsOn().probe());
        if (!probes.isEmpty()) {
            if (target.reachedTaskPhases().containsAll(probes)) {
                return Target.HOLDS;
            }
            return target.ended() ? Target.NEVER : Target.PENDING;
        }
        // A phase a `when` lists holds while the job is in it, final or not: a branch on Aborted
        // reacts to the abort although the job may still be resumed.
        if (target.phase() != null && wanted(entry).contains(target.phase().name())) {
            return Target.HOLDS;
        }
        return target.ended() ? Target.NEVER : Target.PENDING;
    }

    /** The phases the targets must end in: {@code when.phases}, or Completed as in Volcano. */
    static List<String> wanted(Flow entry) {
        if (entry.when() == null
                || entry.when().phases() == null
                || entry.when().phases().isEmpty()) {
            return List.of(JobPhase.Completed.name());
        }
        return entry.when().phases();
    }

    /**
     * The {@code task/phase} pairs a probe waits for. The core cannot send HTTP requests or open
     * sockets, so an httpGet or tcpSocket probe holds once its task is Running: the earliest moment
     * the endpoint could answer.
     */
    static List<String> probeConditions(Probe p) {
        List<String> out = new ArrayList<>();
        if (p == null) {
            return out;
        }
        if (p.taskStatusList() != null) {
            p.taskStatusList().forEach(s -> out.add(s.taskName() + "/" + s.phase()));
        }
        if (p.httpGetList() != null) {
            p.httpGetList().forEach(h -> out.add(h.taskName() + "/Running"));
        }
        if (p.tcpSocketList() != null) {
            p.tcpSocketList().forEach(s -> out.add(s.taskName() + "/Running"));
        }
        return out;
    }

    /**
     * Whether a job that ended Failed or Terminated is an expected outcome: some entry with a
     * {@code when} listing that phase depends on it (the compensation branch). An unhandled one
     * fails the flow at once.
     */
    public static boolean handled(FlowJob ended, List<Flow> flows) {
        for (Flow f : flows) {
            if (f != null
                    && f.when() != null
                    && f.dependsOn() != null
                    && f.dependsOn().targetsOrEmpty().contains(ended.entry())
                    && wanted(f).contains(ended.phase().name())) {
                return true;
            }
        }
        return false;
    }
}
