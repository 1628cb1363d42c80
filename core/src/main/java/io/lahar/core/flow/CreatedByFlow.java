package io.lahar.core.flow;

import io.lahar.core.api.Job;
import io.lahar.core.api.ObjectMeta;
import java.util.Objects;
import java.util.Optional;

/**
 * Which JobFlow made a job: the {@value FlowRun#CREATED_BY_JOB_FLOW} annotation (or, without it, the
 * label) the flow engine puts on every job it creates, {@code <namespace>.<jobflow>}. A flow creates
 * its jobs in its own namespace, so a mark naming another namespace names no flow of this job.
 */
public final class CreatedByFlow {

    private CreatedByFlow() {}

    /** The name of the flow that made {@code job}; empty when it is no flow's. */
    public static Optional<String> of(Job job) {
        ObjectMeta meta = job.metadata();
        if (meta == null) {
            return Optional.empty();
        }
        return of(
                job.namespace(),
                meta.annotationsOrEmpty().get(FlowRun.CREATED_BY_JOB_FLOW),
                meta.labelsOrEmpty().get(FlowRun.CREATED_BY_JOB_FLOW));
    }

    /**
     * The same from a job's namespace and the mark's annotation and label values (null or empty
     * when the job has none).
     */
    public static Optional<String> of(String namespace, String annotation, String label) {
        String mark = annotation == null || annotation.isEmpty() ? Objects.requireNonNullElse(label, "") : annotation;
        // Namespaces are DNS labels (no dots): the first dot ends the namespace, the rest is the flow.
        int dot = mark.indexOf('.');
        if (dot <= 0 || dot == mark.length() - 1 || !mark.substring(0, dot).equals(namespace)) {
            return Optional.empty();
        }
        return Optional.of(mark.substring(dot + 1));
    }
}
