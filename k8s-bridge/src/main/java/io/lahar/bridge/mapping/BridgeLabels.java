package io.lahar.bridge.mapping;

/** Keys the bridge itself puts on the objects it creates, beside Volcano's (see {@code PodLabels}). */
public final class BridgeLabels {

    /** The engine's UID of the Job a pod belongs to, so pod events can carry it back (PodEvent.jobUid). */
    public static final String JOB_UID = "lahar.io/job-uid";
    /** Set on every object the bridge creates; the pod watch selects on it, so pods of others are left alone. */
    public static final String MANAGED_BY = "app.kubernetes.io/managed-by";

    public static final String MANAGER = "lahar";
    /** Volcano's default scheduler name: the default kube-scheduler leaves such pods alone. */
    public static final String DEFAULT_SCHEDULER = "volcano";

    private BridgeLabels() {}
}
