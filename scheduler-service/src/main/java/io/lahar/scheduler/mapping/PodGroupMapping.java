package io.lahar.scheduler.mapping;

import io.lahar.core.api.PodGroupPhase;
import io.lahar.core.resource.Resource;
import io.lahar.core.scheduling.api.DisruptionBudget;
import io.lahar.core.scheduling.api.JobInfo;
import io.lahar.core.scheduling.api.Problem;
import io.lahar.core.scheduling.api.SubGroupPolicy;
import io.lahar.core.scheduling.api.TaskInfo;
import io.lahar.core.scheduling.plugins.Sla;
import io.lahar.schema.PodGroup;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A {@code lahar.pod-groups} record and the tasks the cache holds for it, to a {@link JobInfo}.
 * The JobInfo is named after the Job (not the pod group), so its key is the record key
 * {@code namespace/job} that every decision about it carries.
 */
public final class PodGroupMapping {
    private PodGroupMapping() {}

    /** @throws MappingException naming every bad field */
    public static JobInfo toJobInfo(PodGroup group, PodGroupPhase phase, List<TaskInfo> tasks) {
        List<Problem> problems = new ArrayList<>();
        Resource min = Quantities.parse(group.getSpec().getMinResources(), "spec.minResources", problems);
        if (group.getSpec().getMinMember() < 0) {
            problems.add(new Problem(
                    "spec.minMember",
                    "must not be negative, got " + group.getSpec().getMinMember()));
        }
        List<SubGroupPolicy> subGroups = new ArrayList<>();
        for (int i = 0; i < group.getSpec().getSubGroupPolicy().size(); i++) {
            io.lahar.schema.SubGroupPolicy p =
                    group.getSpec().getSubGroupPolicy().get(i);
            problems.addAll(SubGroupPolicy.countProblems(
                    "spec.subGroupPolicy[" + i + "]", p.getSubGroupSize(), p.getMinSubGroups(), Integer.MAX_VALUE));
            Map<String, String> matchLabels = new TreeMap<>();
            p.getMatchLabels().forEach((k, v) -> matchLabels.put(k.toString(), v.toString()));
            subGroups.add(new SubGroupPolicy(
                    p.getName().toString(),
                    p.getSubGroupSize(),
                    p.getMinSubGroups(),
                    matchLabels,
                    p.getMatchLabelKeys().stream().map(CharSequence::toString).toList()));
        }
        java.time.Duration waitingTime = null;
        Map<String, String> annotations = new TreeMap<>();
        group.getAnnotations().forEach((k, v) -> annotations.put(k.toString(), v.toString()));
        Map<String, String> labels = new TreeMap<>();
        group.getLabels().forEach((k, v) -> labels.put(k.toString(), v.toString()));
        try {
            waitingTime = Sla.waitingTimeOf(annotations).orElse(null);
        } catch (IllegalArgumentException e) {
            problems.add(new Problem("annotations." + Sla.WAITING_TIME, e.getMessage()));
        }
        MappingException.throwIfAny(problems);
        Map<String, Integer> minTaskMember = new TreeMap<>();
        group.getSpec().getMinTaskMember().forEach((k, v) -> minTaskMember.put(k.toString(), v));
        return new JobInfo(
                group.getNamespace().toString(),
                group.getJob().toString(),
                group.getSpec().getQueue().toString(),
                group.getSpec().getMinMember(),
                minTaskMember,
                min,
                group.getSpec().getPriority(),
                group.getCreationTimestamp().toEpochMilli(),
                phase,
                tasks,
                group.getCreationTimestamp(),
                waitingTime,
                subGroups,
                JobInfo.preemptableOf(labels, annotations),
                DisruptionBudget.of(annotations));
    }

    /** Checks a pod group when it arrives, so a bad one is dead-lettered rather than kept. */
    public static void check(PodGroup group) {
        toJobInfo(group, PodGroupPhase.Pending, List.of());
    }

    /** The phase of a status string; a phase this version does not know is Unknown. */
    public static PodGroupPhase phase(CharSequence s) {
        if (s == null) return PodGroupPhase.Pending;
        for (PodGroupPhase p : PodGroupPhase.values()) {
            if (p.name().contentEquals(s)) return p;
        }
        return PodGroupPhase.Unknown;
    }
}
