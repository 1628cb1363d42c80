package io.lahar.core.admission;

import io.lahar.core.api.PodGroup;

/** Volcano's podgroup webhooks: queue defaults to {@code default}; it must be an open leaf queue. */
public final class PodGroupAdmission {

    private PodGroupAdmission() {
    }

    public static AdmissionResult<PodGroup> create(PodGroup pg, AdmissionContext ctx) {
        PodGroup.PodGroupSpec s = pg.spec() == null ? new PodGroup.PodGroupSpec(null, null, null, null, null, null) : pg.spec();
        if (s.queue() == null || s.queue().isEmpty()) {
            s = new PodGroup.PodGroupSpec(s.minMember(), s.minTaskMember(), JobDefaults.DEFAULT_QUEUE,
                    s.priorityClassName(), s.minResources(), s.networkTopology());
        }
        PodGroup out = new PodGroup(pg.apiVersion(), pg.kind(), pg.metadata(), s, pg.status());
        Violations v = new Violations();
        JobAdmission.validateMetadata(out, v);
        validateSpec(s, v);
        JobAdmission.validateQueue(s.queue(), ctx, "spec.queue", "podgroup", v);
        return AdmissionResult.of(out, v.list());
    }

    public static AdmissionResult<PodGroup> update(PodGroup old, PodGroup pg, AdmissionContext ctx) {
        Violations v = new Violations();
        if (pg.spec() != null) {
            validateSpec(pg.spec(), v);
        }
        return AdmissionResult.of(pg, v.list());
    }

    private static void validateSpec(PodGroup.PodGroupSpec s, Violations v) {
        if (s.minMember() != null && s.minMember() < 0) {
            v.add("spec.minMember", "must be >= 0");
        }
        if (s.minTaskMember() != null) {
            s.minTaskMember().forEach((task, n) -> {
                if (n != null && n < 0) {
                    v.add("spec.minTaskMember." + task, "must be >= 0");
                }
            });
        }
        QueueAdmission.quantities(s.minResources(), "spec.minResources", v);
    }
}
