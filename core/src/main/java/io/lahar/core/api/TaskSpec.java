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
        return new TaskSpec(
                v, replicas, minAvailable, template, policies, topologyPolicy, maxRetry, dependsOn, partitionPolicy);
    }

    public TaskSpec withReplicas(Integer v) {
        return new TaskSpec(
                name, v, minAvailable, template, policies, topologyPolicy, maxRetry, dependsOn, partitionPolicy);
    }

    public TaskSpec withMinAvailable(Integer v) {
        return new TaskSpec(
                name, replicas, v, template, policies, topologyPolicy, maxRetry, dependsOn, partitionPolicy);
    }

    public TaskSpec withTemplate(ObjectNode v) {
        return new TaskSpec(
                name, replicas, minAvailable, v, policies, topologyPolicy, maxRetry, dependsOn, partitionPolicy);
    }

    public TaskSpec withMaxRetry(Integer v) {
        return new TaskSpec(
                name, replicas, minAvailable, template, policies, topologyPolicy, v, dependsOn, partitionPolicy);
    }
}
