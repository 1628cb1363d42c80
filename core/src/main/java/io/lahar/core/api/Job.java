package io.lahar.core.api;

/** batch.volcano.sh/v1alpha1 Job (vcjob): several tasks, gang-scheduled and restarted as one. */
public record Job(String apiVersion, String kind, ObjectMeta metadata, JobSpec spec, JobStatus status)
        implements Manifest {

    public static final String API_VERSION = "batch.volcano.sh/v1alpha1";
    public static final String KIND = "Job";

    public Job withSpec(JobSpec newSpec) {
        return new Job(apiVersion, kind, metadata, newSpec, status);
    }

    public Job withMetadata(ObjectMeta newMetadata) {
        return new Job(apiVersion, kind, newMetadata, spec, status);
    }

    public Job withStatus(JobStatus newStatus) {
        return new Job(apiVersion, kind, metadata, spec, newStatus);
    }
}
