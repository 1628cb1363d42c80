package io.lahar.core.admission;

import io.lahar.core.api.Flow;
import io.lahar.core.api.JobFlow;
import io.lahar.core.api.JobFlowPhase;
import io.lahar.core.api.JobTemplate;

/**
 * JobTemplate admission: its spec is a Job spec, validated like one (against the defaults a job
 * made from it will get). As in Volcano, the template itself is stored as written: the defaults
 * are applied to the job a JobFlow creates from it. A template an unfinished JobFlow uses can not
 * be deleted.
 */
public final class JobTemplateAdmission {

    private JobTemplateAdmission() {}

    public static AdmissionResult<JobTemplate> create(JobTemplate template, AdmissionContext ctx) {
        Violations v = new Violations();
        JobAdmission.validateMetadata(template, v);
        JobSpecValidation.validate(
                template.name(), template.spec() == null ? null : JobDefaults.apply(template.spec()), ctx.limits(), v);
        return AdmissionResult.of(template, v.list());
    }

    /** Updates are allowed (they affect only flows that have not yet created the job); the new spec must be valid. */
    public static AdmissionResult<JobTemplate> update(JobTemplate old, JobTemplate template, AdmissionContext ctx) {
        AdmissionResult<JobTemplate> r = create(template, ctx);
        if (!old.name().equals(template.name())) {
            java.util.List<Violation> all = new java.util.ArrayList<>(r.violations());
            all.add(0, new Violation("metadata.name", "may not be changed on update (was \"" + old.name() + "\")"));
            return AdmissionResult.reject(all);
        }
        return r;
    }

    public static AdmissionResult<JobTemplate> delete(JobTemplate template, AdmissionContext ctx) {
        Violations v = new Violations();
        for (JobFlow flow : ctx.flows()) {
            if (!flow.namespace().equals(template.namespace()) || flow.spec() == null || isFinished(flow)) {
                continue;
            }
            for (Flow f : flow.spec().flowsOrEmpty()) {
                if (f != null && template.name().equals(f.name())) {
                    v.add(
                            "metadata.name",
                            "jobtemplate \"" + template.name() + "\" is used by unfinished jobflow \"" + flow.name()
                                    + "\" (phase " + phase(flow) + ") and can not be deleted");
                    break;
                }
            }
        }
        return AdmissionResult.of(template, v.list());
    }

    static boolean isFinished(JobFlow flow) {
        JobFlowPhase p = flow.status() == null || flow.status().state() == null
                ? null
                : flow.status().state().phase();
        return p != null && p.isFinished();
    }

    static String phase(JobFlow flow) {
        JobFlowPhase p = flow.status() == null || flow.status().state() == null
                ? null
                : flow.status().state().phase();
        return p == null ? JobFlowPhase.Pending.name() : p.name();
    }
}
