package io.lahar.core.admission;

import io.lahar.core.api.PriorityClass;
import java.util.List;

/** Kubernetes' PriorityClass validation: a value at most 1e9 for user classes; the value is immutable. */
public final class PriorityClassAdmission {

    static final int HIGHEST_USER_DEFINABLE_PRIORITY = 1_000_000_000;

    private PriorityClassAdmission() {}

    public static AdmissionResult<PriorityClass> create(PriorityClass pc, AdmissionContext ctx) {
        Violations v = new Violations();
        JobAdmission.validateMetadata(pc, v);
        if (pc.value() == null) {
            v.add("value", "required");
        } else if (pc.value() > HIGHEST_USER_DEFINABLE_PRIORITY && !pc.name().startsWith("system-")) {
            v.add("value", "must be no greater than " + HIGHEST_USER_DEFINABLE_PRIORITY);
        }
        if (pc.preemptionPolicy() != null
                && !List.of("PreemptLowerPriority", "Never").contains(pc.preemptionPolicy())) {
            v.add(
                    "preemptionPolicy",
                    PodTemplateValidation.unsupported(pc.preemptionPolicy(), List.of("PreemptLowerPriority", "Never")));
        }
        return AdmissionResult.of(pc, v.list());
    }

    public static AdmissionResult<PriorityClass> update(PriorityClass old, PriorityClass pc, AdmissionContext ctx) {
        AdmissionResult<PriorityClass> r = create(pc, ctx);
        if (old.value() != null && !old.value().equals(pc.value())) {
            List<Violation> all = new java.util.ArrayList<>(r.violations());
            all.add(new Violation("value", "field is immutable"));
            return AdmissionResult.reject(all);
        }
        return r;
    }
}
