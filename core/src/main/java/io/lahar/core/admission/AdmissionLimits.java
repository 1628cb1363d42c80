package io.lahar.core.admission;

/**
 * The bounds admission puts on the numbers in a manifest that the engine allocates from: a Job's
 * replicas become pods, each with a name, an entry in the job's state and a record on the pod
 * intents topic, so a number no larger than its type allows can still stop the engine.
 * Kubernetes' own bound on one workload's pods (an Indexed Job's parallelism) is the ceiling of
 * the configurable limit (docs/decisions/040-admission-limits.md says why the default).
 *
 * @param maxPodsPerJob the most pods one Job may ask for: the sum of its tasks' replicas, and a
 *                      PodGroup's minMember
 */
public record AdmissionLimits(int maxPodsPerJob) {

    /** The default per-job pod limit. */
    public static final int DEFAULT_MAX_PODS_PER_JOB = 5_000;

    /** Kubernetes' bound on an Indexed Job's parallelism and completions: no configuration goes past it. */
    public static final int CEILING_MAX_PODS_PER_JOB = 100_000;

    /** Kubernetes' limit on the total size of an object's annotations, keys and values (TotalAnnotationSizeLimitB). */
    public static final int ANNOTATIONS_MAX_BYTES = 256 * 1024;

    public static final AdmissionLimits DEFAULTS = new AdmissionLimits(DEFAULT_MAX_PODS_PER_JOB);

    public AdmissionLimits {
        if (maxPodsPerJob < 1 || maxPodsPerJob > CEILING_MAX_PODS_PER_JOB) {
            throw new IllegalArgumentException("the per-job pod limit must be between 1 and " + CEILING_MAX_PODS_PER_JOB
                    + ", was " + maxPodsPerJob);
        }
    }

    /** The message of one count of pods over the per-job pod limit. */
    String overPodLimit(long count) {
        return overPodLimit(java.math.BigInteger.valueOf(count));
    }

    String overPodLimit(java.math.BigInteger count) {
        return "must be no more than " + maxPodsPerJob + ", the limit of pods per job (was " + count + ")";
    }

    /** The message of counts of pods whose sum ({@code what}, e.g. "the tasks' replicas") is over the limit. */
    String sumOverPodLimit(String what, long sum) {
        return what + " sum to " + sum + " pods, over the limit of " + maxPodsPerJob + " pods per job";
    }
}
