package io.lahar.core.admission;

import io.lahar.core.api.PriorityClass;
import java.util.List;
import java.util.Map;

/**
 * Kubernetes' PriorityClass rules, as its API server holds a class to them: a name with the
 * {@code system-} prefix only for its own system classes; a value at most 1e9 for the others; a
 * known preemptionPolicy; on update, value and preemptionPolicy immutable; and, as its Priority
 * admission plugin says, one global default at most.
 */
public final class PriorityClassAdmission {

    static final int HIGHEST_USER_DEFINABLE_PRIORITY = 1_000_000_000;

    private static final String SYSTEM_PREFIX = "system-";
    /** The classes the API server creates itself, by name: their values. */
    private static final Map<String, Integer> SYSTEM_CLASSES =
            Map.of("system-cluster-critical", 2_000_000_000, "system-node-critical", 2_000_001_000);

    private PriorityClassAdmission() {}

    public static AdmissionResult<PriorityClass> create(PriorityClass pc, AdmissionContext ctx) {
        Violations v = new Violations();
        JobAdmission.validateMetadata(pc, v);
        if (pc.value() == null) {
            v.add("value", "required");
        } else if (pc.name() != null && pc.name().startsWith(SYSTEM_PREFIX)) {
            if (!pc.value().equals(SYSTEM_CLASSES.get(pc.name())) || Boolean.TRUE.equals(pc.globalDefault())) {
                v.add(
                        "metadata.name",
                        "priority class names with '" + SYSTEM_PREFIX + "' prefix are reserved for system use only");
            }
        } else if (pc.value() > HIGHEST_USER_DEFINABLE_PRIORITY) {
            v.add("value", "must be no greater than " + HIGHEST_USER_DEFINABLE_PRIORITY);
        }
        if (pc.preemptionPolicy() != null
                && !List.of("PreemptLowerPriority", "Never").contains(pc.preemptionPolicy())) {
            v.add(
                    "preemptionPolicy",
                    PodTemplateValidation.unsupported(pc.preemptionPolicy(), List.of("PreemptLowerPriority", "Never")));
        }
        if (Boolean.TRUE.equals(pc.globalDefault())) {
            ctx.priorityClasses().stream()
                    .filter(other -> Boolean.TRUE.equals(other.globalDefault())
                            && !other.name().equals(pc.name()))
                    .findFirst()
                    .ifPresent(other -> v.add(
                            "globalDefault",
                            "PriorityClass " + other.name()
                                    + " is already marked as default. Only one default can exist"));
        }
        return AdmissionResult.of(pc, v.list());
    }

    public static AdmissionResult<PriorityClass> update(PriorityClass old, PriorityClass pc, AdmissionContext ctx) {
        AdmissionResult<PriorityClass> r = create(pc, ctx);
        List<Violation> all = new java.util.ArrayList<>(r.violations());
        if (old.value() != null && !old.value().equals(pc.value())) {
            all.add(new Violation("value", "field is immutable"));
        }
        if (!preemptionPolicy(old).equals(preemptionPolicy(pc))) {
            all.add(new Violation("preemptionPolicy", "field is immutable"));
        }
        return all.size() == r.violations().size() ? r : AdmissionResult.reject(all);
    }

    /** As the API server defaults it. */
    private static String preemptionPolicy(PriorityClass pc) {
        return pc.preemptionPolicy() == null ? "PreemptLowerPriority" : pc.preemptionPolicy();
    }
}
