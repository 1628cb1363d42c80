package io.lahar.core.admission;

import io.lahar.core.api.PodGroup;
import io.lahar.core.scheduling.api.Problem;
import io.lahar.core.scheduling.api.SubGroupPolicy;
import java.util.List;
import java.util.Map;

/**
 * Volcano's podgroup webhooks: queue defaults to {@code default}; it must be an open leaf queue.
 * A PodGroup another operator made is held to the same rules of its spec ({@link #otherWorkload}).
 */
public final class PodGroupAdmission {

    /** Why a PodGroup's {@code networkTopology} is refused. */
    private static final String NETWORK_TOPOLOGY_REFUSED = JobSpecValidation.NO_HYPERNODES;

    private PodGroupAdmission() {}

    public static AdmissionResult<PodGroup> create(PodGroup pg, AdmissionContext ctx) {
        PodGroup out = withDefaultQueue(pg);
        Violations v = new Violations();
        JobAdmission.validateMetadata(out, v);
        JobAdmission.validateWaitingTime(out, v);
        JobAdmission.validateRevocable(out, v);
        validateSpec(out.spec(), ctx.limits(), v);
        JobAdmission.validateQueue(out.spec().queue(), ctx, "spec.queue", "podgroup", v);
        return AdmissionResult.of(out, v.list());
    }

    /**
     * A PodGroup another operator made, as the k8s-bridge reads it from the cluster
     * (docs/decisions/048-other-workloads.md): the queue defaulted and the rules of the spec, every
     * violation with its path, and each field the reading did not know refused, since the
     * scheduler would not carry it out. The queue's rules are left out: whether it exists, is open
     * and a leaf is the scheduler's verdict on the group (Unschedulable until it is), as it is in
     * Volcano's scheduler, and the bridge does not know the queues.
     *
     * @param unknownFields the paths of the fields reading the CR dropped ({@code Manifests.Reading})
     */
    public static AdmissionResult<PodGroup> otherWorkload(
            PodGroup pg, List<String> unknownFields, AdmissionLimits limits) {
        PodGroup out = withDefaultQueue(pg);
        Violations v = new Violations();
        for (String field : unknownFields) {
            v.add(field, "not a field Lahar's scheduler knows, so it would not be carried out; remove it");
        }
        JobAdmission.validateWaitingTime(out, v);
        JobAdmission.validateRevocable(out, v);
        validateSpec(out.spec(), limits, v);
        return AdmissionResult.of(out, v.list());
    }

    private static PodGroup withDefaultQueue(PodGroup pg) {
        PodGroup.PodGroupSpec s =
                pg.spec() == null ? new PodGroup.PodGroupSpec(null, null, null, null, null, null, null) : pg.spec();
        if (s.queue() == null || s.queue().isEmpty()) {
            s = new PodGroup.PodGroupSpec(
                    s.minMember(),
                    s.minTaskMember(),
                    JobDefaults.DEFAULT_QUEUE,
                    s.priorityClassName(),
                    s.minResources(),
                    s.networkTopology(),
                    s.subGroupPolicy());
        }
        return new PodGroup(pg.apiVersion(), pg.kind(), pg.metadata(), s, pg.status());
    }

    public static AdmissionResult<PodGroup> update(PodGroup old, PodGroup pg, AdmissionContext ctx) {
        Violations v = new Violations();
        if (pg.spec() != null) {
            validateSpec(pg.spec(), ctx.limits(), v);
        }
        return AdmissionResult.of(pg, v.list());
    }

    /** The gang's counts are pods the scheduler must place together: in range, and within the per-job pod limit. */
    private static void validateSpec(PodGroup.PodGroupSpec s, AdmissionLimits limits, Violations v) {
        int max = limits.maxPodsPerJob();
        if (s.minMember() != null && s.minMember() < 0) {
            v.add("spec.minMember", "must be >= 0");
        } else if (s.minMember() != null && s.minMember() > max) {
            v.add("spec.minMember", limits.overPodLimit(s.minMember()));
        }
        if (s.minTaskMember() != null) {
            long sum = 0;
            for (Map.Entry<String, Integer> e : s.minTaskMember().entrySet()) {
                Integer n = e.getValue();
                if (n != null && n < 0) {
                    v.add("spec.minTaskMember." + e.getKey(), "must be >= 0");
                } else if (n != null && n > max) {
                    v.add("spec.minTaskMember." + e.getKey(), limits.overPodLimit(n));
                }
                sum += n == null ? 0 : Math.max(0, n);
            }
            if (sum > max) {
                v.add("spec.minTaskMember", limits.sumOverPodLimit("the tasks' minimum members", sum));
            }
        }
        QueueAdmission.quantities(s.minResources(), "spec.minResources", v);
        if (s.networkTopology() != null) {
            v.add("spec.networkTopology", NETWORK_TOPOLOGY_REFUSED);
        }
        if (s.subGroupPolicy() != null) {
            for (int i = 0; i < s.subGroupPolicy().size(); i++) {
                PodGroup.SubGroupPolicySpec p = s.subGroupPolicy().get(i);
                String at = "spec.subGroupPolicy[" + i + "]";
                if (p == null || p.name() == null || p.name().isEmpty()) {
                    v.add(at + ".name", "required");
                }
                if (p != null) {
                    for (Problem problem : SubGroupPolicy.countProblems(at, p.subGroupSize(), p.minSubGroups(), max)) {
                        v.add(problem.path(), problem.message());
                    }
                }
            }
        }
    }
}
