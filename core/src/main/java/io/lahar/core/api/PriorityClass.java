package io.lahar.core.api;

/** scheduling.k8s.io/v1 PriorityClass: the integer priority a priorityClassName stands for. */
public record PriorityClass(
        String apiVersion,
        String kind,
        ObjectMeta metadata,
        Integer value,
        Boolean globalDefault,
        String description,
        String preemptionPolicy)
        implements Manifest {

    public static final String API_VERSION = "scheduling.k8s.io/v1";
    public static final String KIND = "PriorityClass";

    /** A class as a priority is resolved from it: its name, value and whether it is the global default. */
    public static PriorityClass of(String name, Integer value, Boolean globalDefault) {
        return new PriorityClass(API_VERSION, KIND, ObjectMeta.named(name), value, globalDefault, null, null);
    }
}
