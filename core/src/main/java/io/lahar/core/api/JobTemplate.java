package io.lahar.core.api;

import java.util.List;

/** flow.volcano.sh/v1alpha1 JobTemplate: a Job spec that JobFlows instantiate. */
public record JobTemplate(String apiVersion, String kind, ObjectMeta metadata, JobSpec spec, JobTemplateStatus status)
        implements Manifest {

    public static final String API_VERSION = "flow.volcano.sh/v1alpha1";
    public static final String KIND = "JobTemplate";

    public JobTemplate withSpec(JobSpec newSpec) {
        return new JobTemplate(apiVersion, kind, metadata, newSpec, status);
    }

    /** The flows that use this template (Volcano's jobDependsOnList). */
    public record JobTemplateStatus(List<String> jobDependsOnList) {}
}
