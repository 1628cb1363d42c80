package io.lahar.core.scheduling.api;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Volcano's SubGroupPolicy as the scheduler reads it: the tasks whose labels carry
 * {@code matchLabels} are grouped by their values of {@code matchLabelKeys} into sub-groups (Volcano's
 * SubJobs); a sub-group counts only when {@code subGroupSize} of its tasks are placed, and the job is
 * valid, pipelined or ready only when {@code minSubGroups} sub-groups are.
 *
 * @param name           the policy's name (a Job's partitioned task)
 * @param subGroupSize   tasks of one sub-group that must be placed together
 * @param minSubGroups   sub-groups that must be placed whole; 0 asks for none
 * @param matchLabels    labels a task must carry to belong to one of these sub-groups
 * @param matchLabelKeys labels whose values name a task's sub-group; a task without one belongs to none
 */
public record SubGroupPolicy(
        String name, int subGroupSize, int minSubGroups, Map<String, String> matchLabels, List<String> matchLabelKeys) {

    public SubGroupPolicy {
        Objects.requireNonNull(name, "name");
        matchLabels = matchLabels == null ? Map.of() : Map.copyOf(matchLabels);
        matchLabelKeys = matchLabelKeys == null ? List.of() : List.copyOf(matchLabelKeys);
    }

    /** The pod group's policy as the scheduler reads it; a missing size is 1, a missing minimum 0. */
    public static SubGroupPolicy of(io.lahar.core.api.PodGroup.SubGroupPolicySpec p) {
        return new SubGroupPolicy(
                p.name() == null ? "" : p.name(),
                p.subGroupSize() == null ? 1 : p.subGroupSize(),
                p.minSubGroups() == null ? 0 : p.minSubGroups(),
                p.labelSelector() == null ? null : p.labelSelector().matchLabels(),
                p.matchLabelKeys());
    }

    /**
     * What is wrong with a policy's counts, at {@code at} (e.g. {@code spec.subGroupPolicy[0]}): a size
     * of at least 1 and a minimum of at least 0, neither above {@code max}. PodGroup admission passes its
     * per-job pod limit; the scheduler, reading a pod-group record any producer may have written, passes
     * {@link Integer#MAX_VALUE}, so both refuse a policy by the same rule.
     */
    public static List<Problem> countProblems(String at, Integer subGroupSize, Integer minSubGroups, int max) {
        List<Problem> problems = new ArrayList<>(2);
        if (subGroupSize == null || subGroupSize < 1) {
            problems.add(new Problem(at + ".subGroupSize", "must be at least 1, got " + subGroupSize));
        } else if (subGroupSize > max) {
            problems.add(new Problem(at + ".subGroupSize", "must be at most " + max + ", got " + subGroupSize));
        }
        if (minSubGroups != null && minSubGroups < 0) {
            problems.add(new Problem(at + ".minSubGroups", "must not be negative, got " + minSubGroups));
        } else if (minSubGroups != null && minSubGroups > max) {
            problems.add(new Problem(at + ".minSubGroups", "must be at most " + max + ", got " + minSubGroups));
        }
        return problems;
    }

    /**
     * The sub-group {@code labels} put a task in under this policy: the values of the match keys,
     * joined; null when the task is not selected or lacks one of them (Volcano's getSubJobMatchValues).
     */
    public String subGroupOf(Map<String, String> labels) {
        for (Map.Entry<String, String> e : matchLabels.entrySet()) {
            if (!e.getValue().equals(labels.get(e.getKey()))) {
                return null;
            }
        }
        StringBuilder key = new StringBuilder(name);
        for (String k : matchLabelKeys) {
            String v = labels.get(k);
            if (v == null || v.isEmpty()) {
                return null;
            }
            key.append('/').append(v);
        }
        return key.toString();
    }
}
