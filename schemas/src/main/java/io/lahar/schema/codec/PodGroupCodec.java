package io.lahar.schema.codec;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.lahar.core.api.Manifests;
import io.lahar.core.api.PodGroupPhase;
import io.lahar.core.api.Timestamps;
import io.lahar.schema.PodGroup;
import io.lahar.schema.PodGroupCondition;
import io.lahar.schema.PodGroupSpec;
import io.lahar.schema.PodGroupStatus;
import io.lahar.schema.SubGroupPolicy;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The engine's pod group (spec as asked, phase as last seen) to its {@code lahar.pod-groups} record. */
public final class PodGroupCodec {

    private PodGroupCodec() {}

    /** The job the group belongs to, and when. */
    public record Context(String namespace, String job, String jobUid, int jobVersion, long createdAt, long time) {}

    /**
     * The scheduler's conditions as the job keeps them (from {@link SchedulerDecisionCodec#conditions})
     * back to the record's; a condition without a transition time takes {@code time}.
     */
    public static List<PodGroupCondition> conditions(
            List<io.lahar.core.api.PodGroup.PodGroupCondition> kept, long time) {
        return kept.stream()
                .map(c -> new PodGroupCondition(
                        c.type(),
                        c.status(),
                        c.transitionID(),
                        c.lastTransitionTime() == null
                                ? Instant.ofEpochMilli(time)
                                : Timestamps.parse(c.lastTransitionTime()),
                        c.reason(),
                        c.message()))
                .toList();
    }

    /**
     * @param name       the group's name ({@code <job>-<uid>})
     * @param phase      the phase as last decided by the scheduler (Pending for a new group)
     * @param conditions the scheduler's conditions as last decided; empty when none
     * @param running    the job's pods running, succeeded and failed, as counted from pod events
     * @param annotations the Job's annotations, which Volcano copies onto its PodGroup
     * @param labels the Job's labels, which Volcano copies onto its PodGroup too
     */
    public static PodGroup toRecord(
            Context ctx,
            String name,
            Map<String, String> annotations,
            Map<String, String> labels,
            io.lahar.core.api.PodGroup.PodGroupSpec spec,
            PodGroupPhase phase,
            List<PodGroupCondition> conditions,
            int running,
            int succeeded,
            int failed) {
        return PodGroup.newBuilder()
                .setNamespace(ctx.namespace())
                .setName(name)
                .setJob(ctx.job())
                .setJobUid(ctx.jobUid())
                .setJobVersion(ctx.jobVersion())
                .setCreationTimestamp(Instant.ofEpochMilli(ctx.createdAt()))
                // The engine does not know the cluster's PriorityClasses: the scheduler resolves the
                // group's priorityClassName at each session (lahar.priority-classes).
                .setSpec(spec(spec, 0))
                .setStatus(PodGroupStatus.newBuilder()
                        .setPhase((phase == null ? PodGroupPhase.Pending : phase).name())
                        .setConditions(conditions == null ? List.of() : List.copyOf(conditions))
                        .setRunning(running)
                        .setSucceeded(succeeded)
                        .setFailed(failed)
                        .build())
                .setTime(Instant.ofEpochMilli(ctx.time()))
                .setAnnotations(annotations == null ? new TreeMap<>() : new TreeMap<>(annotations))
                .setLabels(labels == null ? new TreeMap<>() : new TreeMap<>(labels))
                .build();
    }

    /**
     * A pod group's spec as its record carries it: what the scheduler reads of the group.
     *
     * @param priority the value its priorityClassName resolves to
     */
    public static PodGroupSpec spec(io.lahar.core.api.PodGroup.PodGroupSpec spec, int priority) {
        return PodGroupSpec.newBuilder()
                .setMinMember(spec.minMember() == null ? 0 : spec.minMember())
                .setMinTaskMember(spec.minTaskMember() == null ? new TreeMap<>() : new TreeMap<>(spec.minTaskMember()))
                .setQueue(spec.queue() == null ? "default" : spec.queue())
                .setPriorityClassName(spec.priorityClassName())
                .setPriority(priority)
                .setMinResources(spec.minResources() == null ? new TreeMap<>() : new TreeMap<>(spec.minResources()))
                .setNetworkTopology(spec.networkTopology() == null ? null : json(spec.networkTopology()))
                .setSubGroupPolicy(subGroupPolicy(spec.subGroupPolicy()))
                .build();
    }

    private static String json(Object value) {
        try {
            return Manifests.jsonMapper().writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<SubGroupPolicy> subGroupPolicy(List<io.lahar.core.api.PodGroup.SubGroupPolicySpec> policies) {
        if (policies == null) {
            return List.of();
        }
        return policies.stream()
                .map(p -> SubGroupPolicy.newBuilder()
                        .setName(p.name())
                        .setSubGroupSize(p.subGroupSize() == null ? 1 : p.subGroupSize())
                        .setMinSubGroups(p.minSubGroups() == null ? 0 : p.minSubGroups())
                        .setMatchLabels(
                                p.labelSelector() == null || p.labelSelector().matchLabels() == null
                                        ? new TreeMap<>()
                                        : new TreeMap<>(p.labelSelector().matchLabels()))
                        .setMatchLabelKeys(p.matchLabelKeys() == null ? List.of() : List.copyOf(p.matchLabelKeys()))
                        .build())
                .toList();
    }
}
