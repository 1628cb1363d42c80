package io.lahar.core.scheduling.api;

import io.lahar.core.api.PriorityClass;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The priority a pod group's {@code priorityClassName} stands for, as Volcano's scheduler cache
 * gives a job its priority at each snapshot: the named class's value; a name no class has (or none)
 * takes the value of the class marked {@code globalDefault}, else 0. Kubernetes admits one global
 * default; of several (two creations racing), the lowest value counts, as Kubernetes' Priority
 * admission picks the one that gives a pod its priority.
 */
public final class PriorityClasses {

    public static final PriorityClasses NONE = of(List.of());

    private final Map<String, Integer> values;
    private final int globalDefault;
    /** The classes whose preemptionPolicy is Never; the others preempt lower priorities. */
    private final Set<String> neverPreempt;

    private final boolean globalDefaultNeverPreempts;

    private PriorityClasses(
            Map<String, Integer> values,
            int globalDefault,
            Set<String> neverPreempt,
            boolean globalDefaultNeverPreempts) {
        this.values = values;
        this.globalDefault = globalDefault;
        this.neverPreempt = neverPreempt;
        this.globalDefaultNeverPreempts = globalDefaultNeverPreempts;
    }

    public static PriorityClasses of(Collection<PriorityClass> classes) {
        Map<String, Integer> values = new HashMap<>();
        Set<String> neverPreempt = new HashSet<>();
        PriorityClass globalDefault = null;
        for (PriorityClass c : classes) {
            if (c.value() == null) continue;
            values.put(c.name(), c.value());
            if (TaskInfo.PREEMPT_NEVER.equals(c.preemptionPolicy())) neverPreempt.add(c.name());
            if (Boolean.TRUE.equals(c.globalDefault())
                    && (globalDefault == null || c.value() < globalDefault.value())) {
                globalDefault = c;
            }
        }
        return new PriorityClasses(
                Map.copyOf(values),
                globalDefault == null ? 0 : globalDefault.value(),
                Set.copyOf(neverPreempt),
                globalDefault != null && neverPreempt.contains(globalDefault.name()));
    }

    /** @param name a priorityClassName; null or empty when none is named */
    public int valueOf(String name) {
        Integer value = name == null || name.isEmpty() ? null : values.get(name);
        return value == null ? globalDefault : value;
    }

    /**
     * A pod's priority, which Volcano's scheduler reads from its {@code spec.priority}: the value the
     * pod has (Kubernetes' Priority admission sets it from the class when the pod is created), else
     * what its {@code priorityClassName} stands for, as that admission would set it.
     *
     * @param priority the pod's {@code spec.priority}; null when it has none
     * @param className its {@code priorityClassName}; null or empty when none is named
     */
    public int podValue(Integer priority, String className) {
        return priority != null ? priority : valueOf(className);
    }

    /**
     * A pod's preemption policy, which Volcano's preempt and reclaim read from its
     * {@code spec.preemptionPolicy}: the policy the pod has, else its class's as Kubernetes' Priority
     * admission sets it (a name no class has, or none: the global default class's); null when
     * neither says Never, which is PreemptLowerPriority.
     *
     * @param policy the pod's own {@code spec.preemptionPolicy}; null when it has none
     * @param className its {@code priorityClassName}; null or empty when none is named
     */
    public String podPreemptionPolicy(String policy, String className) {
        if (policy != null) return policy;
        boolean named = className != null && !className.isEmpty() && values.containsKey(className);
        boolean never = named ? neverPreempt.contains(className) : globalDefaultNeverPreempts;
        return never ? TaskInfo.PREEMPT_NEVER : null;
    }
}
