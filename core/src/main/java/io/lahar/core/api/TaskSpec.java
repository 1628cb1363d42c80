package io.lahar.core.api;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * One task of a Job: {@code replicas} pods made from {@code template}. The template is kept as
 * the PodTemplateSpec JSON tree, so every Kubernetes field survives unchanged; {@link #pod()}
 * gives typed access to the parts Lahar reads.
 */
public record TaskSpec(
        String name,
        Integer replicas,
        Integer minAvailable,
        ObjectNode template,
        List<LifecyclePolicy> policies,
        String topologyPolicy,
        Integer maxRetry,
        TaskDependsOn dependsOn,
        PartitionPolicy partitionPolicy) {

    public int replicasOrZero() {
        return replicas == null ? 0 : replicas;
    }

    public List<LifecyclePolicy> policiesOrEmpty() {
        return policies == null ? List.of() : policies;
    }

    /** Typed view of the pod template (an empty template when none is given). */
    @JsonIgnore
    public PodTemplate pod() {
        return new PodTemplate(template);
    }

    public TaskSpec withName(String v) {
        Draft d = new Draft(this);
        d.name = v;
        return d.done();
    }

    public TaskSpec withReplicas(Integer v) {
        Draft d = new Draft(this);
        d.replicas = v;
        return d.done();
    }

    public TaskSpec withMinAvailable(Integer v) {
        Draft d = new Draft(this);
        d.minAvailable = v;
        return d.done();
    }

    public TaskSpec withTemplate(ObjectNode v) {
        Draft d = new Draft(this);
        d.template = v;
        return d.done();
    }

    public TaskSpec withMaxRetry(Integer v) {
        Draft d = new Draft(this);
        d.maxRetry = v;
        return d.done();
    }

    /**
     * A changing copy of a task: each wither above changes one of the nine components, so each
     * names only that one and this class copies the rest.
     */
    private static final class Draft {
        private String name;
        private Integer replicas;
        private Integer minAvailable;
        private ObjectNode template;
        private final List<LifecyclePolicy> policies;
        private final String topologyPolicy;
        private Integer maxRetry;
        private final TaskDependsOn dependsOn;
        private final PartitionPolicy partitionPolicy;

        Draft(TaskSpec t) {
            name = t.name;
            replicas = t.replicas;
            minAvailable = t.minAvailable;
            template = t.template;
            policies = t.policies;
            topologyPolicy = t.topologyPolicy;
            maxRetry = t.maxRetry;
            dependsOn = t.dependsOn;
            partitionPolicy = t.partitionPolicy;
        }

        TaskSpec done() {
            return new TaskSpec(
                    name,
                    replicas,
                    minAvailable,
                    template,
                    policies,
                    topologyPolicy,
                    maxRetry,
                    dependsOn,
                    partitionPolicy);
        }
    }
}
