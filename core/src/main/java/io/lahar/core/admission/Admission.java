package io.lahar.core.admission;

import io.lahar.core.api.CronJob;
import io.lahar.core.api.Job;
import io.lahar.core.api.JobFlow;
import io.lahar.core.api.JobTemplate;
import io.lahar.core.api.Manifest;
import io.lahar.core.api.PodGroup;
import io.lahar.core.api.PriorityClass;
import io.lahar.core.api.Queue;
import java.util.List;

/**
 * Admission of any manifest: dispatches on the sealed {@link Manifest} to the admitter of its
 * kind. Pure: the context holds everything it looks up.
 */
public final class Admission {

    private Admission() {}

    /** Admits {@code object} for {@code op}; {@code old} is the stored object of an UPDATE. */
    public static AdmissionResult<Manifest> admit(Operation op, Manifest object, Manifest old, AdmissionContext ctx) {
        return switch (op) {
            case CREATE -> create(object, ctx);
            case UPDATE -> update(old, object, ctx);
            case DELETE -> delete(object, ctx);
        };
    }

    public static AdmissionResult<Manifest> create(Manifest m, AdmissionContext ctx) {
        if (!m.name().isEmpty() && ctx.find(m).isPresent()) {
            return AdmissionResult.reject(List.of(
                    new Violation("metadata.name", m.kind().toLowerCase() + " \"" + m.name() + "\" already exists")));
        }
        return switch (m) {
            case Job j -> widen(JobAdmission.create(j, ctx));
            case CronJob c -> widen(CronJobAdmission.create(c, ctx));
            case JobTemplate t -> widen(JobTemplateAdmission.create(t, ctx));
            case JobFlow f -> widen(JobFlowAdmission.create(f, ctx));
            case Queue q -> widen(QueueAdmission.create(q, ctx));
            case PodGroup p -> widen(PodGroupAdmission.create(p, ctx));
            case PriorityClass p -> widen(PriorityClassAdmission.create(p, ctx));
        };
    }

    public static AdmissionResult<Manifest> update(Manifest old, Manifest m, AdmissionContext ctx) {
        if (old == null) {
            throw new IllegalArgumentException("an update needs the stored object");
        }
        if (old.getClass() != m.getClass()) {
            return AdmissionResult.reject(List.of(new Violation(
                    "kind", "may not be changed on update (was " + old.kind() + ", now " + m.kind() + ")")));
        }
        return switch (m) {
            case Job j -> widen(JobAdmission.update((Job) old, j, ctx));
            case CronJob c -> widen(CronJobAdmission.update((CronJob) old, c, ctx));
            case JobTemplate t -> widen(JobTemplateAdmission.update((JobTemplate) old, t, ctx));
            case JobFlow f -> widen(JobFlowAdmission.update((JobFlow) old, f, ctx));
            case Queue q -> widen(QueueAdmission.update((Queue) old, q, ctx));
            case PodGroup p -> widen(PodGroupAdmission.update((PodGroup) old, p, ctx));
            case PriorityClass p -> widen(PriorityClassAdmission.update((PriorityClass) old, p, ctx));
        };
    }

    public static AdmissionResult<Manifest> delete(Manifest m, AdmissionContext ctx) {
        return switch (m) {
            case Queue q -> widen(QueueAdmission.delete(q, ctx));
            case JobTemplate t -> widen(JobTemplateAdmission.delete(t, ctx));
            case JobFlow f -> widen(JobFlowAdmission.delete(f, ctx));
            case Job j -> AdmissionResult.accept(j);
            case CronJob c -> AdmissionResult.accept(c);
            case PodGroup p -> AdmissionResult.accept(p);
            case PriorityClass p -> AdmissionResult.accept(p);
        };
    }

    private static AdmissionResult<Manifest> widen(AdmissionResult<? extends Manifest> r) {
        return r.accepted() ? AdmissionResult.accept(r.object()) : AdmissionResult.reject(r.violations());
    }
}
