package io.lahar.core.job;

import io.lahar.core.admission.AdmissionContext;
import io.lahar.core.admission.AdmissionResult;
import io.lahar.core.admission.JobAdmission;
import io.lahar.core.api.Job;
import io.lahar.core.api.Manifests;

/** Jobs for tests: YAML through admission, as the engine receives them. */
public final class TestJobs {

    private TestJobs() {}

    public static Job admitted(String yaml) {
        AdmissionResult<Job> r = JobAdmission.create(Manifests.read(yaml, Job.class), AdmissionContext.freshInstall());
        if (!r.accepted()) {
            throw new IllegalArgumentException("test job rejected: " + r.violations());
        }
        return r.object();
    }

    /** A job {@code name} with tasks given as "name:replicas" pairs, and extra spec YAML lines. */
    public static Job job(String name, String extraSpec, String... tasks) {
        StringBuilder y = new StringBuilder("apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata:\n  name: ")
                .append(name)
                .append("\nspec:\n");
        if (!extraSpec.isEmpty()) {
            extraSpec.lines().forEach(l -> y.append("  ").append(l).append('\n'));
        }
        y.append("  tasks:\n");
        for (String t : tasks) {
            String[] p = t.split(":");
            y.append("  - name: ")
                    .append(p[0])
                    .append("\n    replicas: ")
                    .append(p[1])
                    .append('\n')
                    .append(
                            "    template:\n      spec:\n        containers:\n        - name: c\n          image: img\n")
                    .append(
                            "          resources:\n            requests:\n              cpu: 500m\n              memory: 1Gi\n");
        }
        return admitted(y.toString());
    }
}
