package io.lahar.core.flow;

import io.lahar.core.api.Job;
import io.lahar.core.api.ObjectMeta;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Which JobFlow made a job: the {@value FlowRun#CREATED_BY_JOB_FLOW} annotation (or, without it, the
 * label) the flow engine puts on every job it creates, {@code <namespace>.<jobflow>}. A flow creates
 * its jobs in its own namespace, so a mark naming another namespace names no flow of this job.
 */
public final class CreatedByFlow {

    private CreatedByFlow() {
    }

    /** The name of the flow that made {@code job}; empty when it is no flow's. */
    public static Optional<String> of(Job job) {
        ObjectMeta meta = job.metadata();
        if (meta == null) {
            return Optional.empty();
        }
        return of(job.namespace(), meta.annotationsOrEmpty(), meta.labelsOrEmpty());
    }

    /** The same from a job's namespace, annotations and labels (maps may be empty, never null). */
    public static Optional<String> of(String namespace, Map<String, String> annotations, Map<String, String> labels) {
        String mark = Objects.requireNonNullElse(annotations.get(FlowRun.CREATED_BY_JOB_FLOW), "");
        if (mark.isEmpty()) {
            mark = Objects.requireNonNullElse(labels.get(FlowRun.CREATED_BY_JOB_FLOW), "");
        }
        // Namespaces are DNS labels (no dots): the first dot ends the namespace, the rest is the flow.
        int dot = mark.indexOf('.');
        if (dot <= 0 || dot == mark.length() - 1 || !mark.substring(0, dot).equals(namespace)) {
            return Optional.empty();
        }
        return Optional.of(mark.substring(dot + 1));
    }
}
