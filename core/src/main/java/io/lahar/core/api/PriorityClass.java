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
}
