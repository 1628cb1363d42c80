package io.lahar.schema;

/**
 * The keys of the pod groups and pods of other workloads (PodGroup CRs no Lahar Job owns, and their
 * pods) on the topics Lahar's own Jobs use. A pod group of another workload is keyed
 * {@code namespace/podgroup:<name>}: a Job's name is a Kubernetes name, which has no ':', so the key
 * never meets a Job's, and every record about the group — its {@code lahar.pod-groups} record, the
 * scheduler's decisions — carries {@code podgroup:<name>} where a Job's carry the Job's name.
 * See docs/decisions/048-other-workloads.md.
 */
public final class WorkloadKeys {

    /** What stands before the PodGroup's name where a Job's records have the Job's name. */
    public static final String PREFIX = "podgroup:";

    /** {@code PodGroup.origin} of a PodGroup CR in the cluster that no Lahar Job owns. */
    public static final String ORIGIN_POD_GROUP = "PodGroup";

    private WorkloadKeys() {}

    /** The job-name part of the group's records: {@code podgroup:<name>}. */
    public static String groupJob(String podGroupName) {
        return PREFIX + podGroupName;
    }

    /** The key of the pod group named {@code podGroupName} in {@code namespace}. */
    public static String groupKey(String namespace, String podGroupName) {
        return Topics.jobKey(namespace, groupJob(podGroupName));
    }

    /** Whether a Job-keyed record's key is about another workload's pod group rather than a Job. */
    public static boolean isGroupKey(String key) {
        int slash = key == null ? -1 : key.indexOf('/');
        return slash >= 0 && key.startsWith(PREFIX, slash + 1);
    }

    /** The PodGroup's name in a key of {@link #isGroupKey}. */
    public static String podGroupName(String key) {
        if (!isGroupKey(key)) {
            throw new IllegalArgumentException("not the key of another workload's pod group: " + key);
        }
        return key.substring(key.indexOf('/') + 1 + PREFIX.length());
    }
}
