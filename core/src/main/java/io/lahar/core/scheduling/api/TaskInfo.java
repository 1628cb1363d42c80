package io.lahar.core.scheduling.api;

import io.lahar.core.job.plugins.PodLabels;
import io.lahar.core.resource.Resource;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A pod of a pod group, as the scheduler sees it.
 *
 * @param name         the pod name ({@code job-task-index}), unique within its job
 * @param role         the task name in the job spec (the key of the pod group's minTaskMember)
 * @param resreq       the pod's resource request
 * @param nodeSelector labels a node must carry
 * @param affinity     required node affinity
 * @param priority     the pod's priority (from its priority class)
 * @param preemptable  whether the pod may be preempted or reclaimed
 * @param status       its status at the snapshot
 * @param nodeName     the node it is bound to (or being released from), null when pending
 * @param spec         its labels, inter-pod terms, spread constraints, host ports and images
 * @param cooldownTime its {@code volcano.sh/cooldown-time} (the cdp plugin's), null without a valid one
 * @param scheduledTime when its PodScheduled condition last turned True, null when not scheduled or not known
 * @param revocableZone Volcano's RevocableZone: "*" when the pod may run on revocable nodes (the tdm
 *                      plugin's), "" when not; see {@link #revocableZoneOf}
 * @param preemptionPolicy its {@code spec.preemptionPolicy}: {@link #PREEMPT_NEVER} when it may take
 *                      nobody's place (preempt and reclaim skip it), PreemptLowerPriority or null
 *                      (Kubernetes' default) when it may
 */
public record TaskInfo(
        String name,
        String role,
        Resource resreq,
        Map<String, String> nodeSelector,
        NodeAffinity affinity,
        List<Toleration> tolerations,
        int priority,
        boolean preemptable,
        TaskStatus status,
        String nodeName,
        PodSpec spec,
        Duration cooldownTime,
        Instant scheduledTime,
        String revocableZone,
        String preemptionPolicy) {

    /** Kubernetes' preemption policy of a pod that never preempts (v1.PreemptNever). */
    public static final String PREEMPT_NEVER = "Never";

    /** Kubernetes' default preemption policy (v1.PreemptLowerPriority). */
    public static final String PREEMPT_LOWER_PRIORITY = "PreemptLowerPriority";

    /** The revocable-zone value that lets a pod run on any revocable node, the only one Volcano honours. */
    public static final String ANY_REVOCABLE_ZONE = "*";

    /**
     * Volcano's GetPodRevocableZone: "*" when the pod's {@code volcano.sh/revocable-zone} annotation
     * is "*", "" for any other value; without that annotation, "*" when its
     * {@code volcano.sh/preemptable} annotation is true.
     */
    public static String revocableZoneOf(Map<String, String> annotations) {
        if (annotations == null) return "";
        String zone = annotations.get(PodLabels.REVOCABLE_ZONE);
        if (zone != null) return zone.equals(ANY_REVOCABLE_ZONE) ? ANY_REVOCABLE_ZONE : "";
        boolean preemptable = io.lahar.core.api.GoBool.parse(annotations.get(PodLabels.PREEMPTABLE))
                .orElse(false);
        return preemptable ? ANY_REVOCABLE_ZONE : "";
    }

    /**
     * Volcano's GetPodPreemptable: the pod's {@code volcano.sh/preemptable} annotation, else its
     * label, read as Go's strconv.ParseBool; a value it refuses is false, none is true.
     */
    public static boolean preemptableOf(Map<String, String> labels, Map<String, String> annotations) {
        String value = annotations.get(PodLabels.PREEMPTABLE);
        if (value == null) {
            value = labels.get(PodLabels.PREEMPTABLE);
        }
        return value == null || io.lahar.core.api.GoBool.parse(value).orElse(false);
    }

    public TaskInfo {
        Objects.requireNonNull(name, "name");
        role = role == null ? "" : role;
        resreq = resreq == null ? Resource.EMPTY : resreq.withPods(0);
        nodeSelector = nodeSelector == null ? Map.of() : Map.copyOf(nodeSelector);
        affinity = affinity == null ? NodeAffinity.NONE : affinity;
        tolerations = tolerations == null ? List.of() : List.copyOf(tolerations);
        status = status == null ? TaskStatus.Pending : status;
        spec = spec == null ? PodSpec.NONE : spec;
        revocableZone = revocableZone == null ? "" : revocableZone;
    }

    /** This task in another status, on another node (null: none). */
    public TaskInfo with(TaskStatus s, String node) {
        return copy(priority, s, node, cooldownTime, scheduledTime, preemptionPolicy);
    }

    /** This task at another priority. */
    public TaskInfo withPriority(int p) {
        return copy(p, status, nodeName, cooldownTime, scheduledTime, preemptionPolicy);
    }

    /**
     * This task with what its PriorityClass gives it at the session: its priority, and its
     * preemption policy (null: PreemptLowerPriority).
     */
    public TaskInfo withClass(int p, String policy) {
        return copy(p, status, nodeName, cooldownTime, scheduledTime, policy);
    }

    /**
     * Whether the task may take others' place, as Volcano's preempt (taskEligibleToPreempt) and
     * reclaim ask: not when its preemption policy is Never.
     */
    public boolean mayPreempt() {
        return !PREEMPT_NEVER.equals(preemptionPolicy);
    }

    /** This task with the cdp plugin's cooldown time and the time it was scheduled (null: none). */
    public TaskInfo withCooldown(Duration cooldown, Instant scheduled) {
        return copy(priority, status, nodeName, cooldown, scheduled, preemptionPolicy);
    }

    private TaskInfo copy(int p, TaskStatus s, String node, Duration cooldown, Instant scheduled, String policy) {
        return new TaskInfo(
                name,
                role,
                resreq,
                nodeSelector,
                affinity,
                tolerations,
                p,
                preemptable,
                s,
                node,
                spec,
                cooldown,
                scheduled,
                revocableZone,
                policy);
    }

    public static Builder builder(String name) {
        return new Builder(name);
    }

    public static final class Builder {
        private final String name;
        private String role = "";
        private Resource resreq = Resource.EMPTY;
        private final Map<String, String> nodeSelector = new TreeMap<>();
        private NodeAffinity affinity = NodeAffinity.NONE;
        private final List<Toleration> tolerations = new java.util.ArrayList<>();
        private int priority;
        private boolean preemptable = true;
        private TaskStatus status = TaskStatus.Pending;
        private String nodeName;
        private PodSpec spec = PodSpec.NONE;
        private Duration cooldownTime;
        private Instant scheduledTime;
        private String revocableZone = "";
        private String preemptionPolicy;

        private Builder(String name) {
            this.name = name;
        }

        public Builder role(String r) {
            role = r;
            return this;
        }

        public Builder resreq(Map<String, ?> quantities) {
            resreq = Resource.parse(quantities);
            return this;
        }

        public Builder resreq(Resource r) {
            resreq = r;
            return this;
        }

        public Builder nodeSelector(String key, String value) {
            nodeSelector.put(key, value);
            return this;
        }

        public Builder affinity(NodeAffinity a) {
            affinity = a;
            return this;
        }

        public Builder toleration(Toleration t) {
            tolerations.add(t);
            return this;
        }

        public Builder priority(int p) {
            priority = p;
            return this;
        }

        public Builder preemptable(boolean p) {
            preemptable = p;
            return this;
        }

        /** Bound (or in another status) on a node. */
        public Builder on(String node, TaskStatus s) {
            nodeName = node;
            status = s;
            return this;
        }

        public Builder status(TaskStatus s) {
            status = s;
            return this;
        }

        public Builder spec(PodSpec s) {
            spec = s;
            return this;
        }

        /** The cdp plugin's {@code volcano.sh/cooldown-time}; null: none. */
        public Builder cooldownTime(Duration d) {
            cooldownTime = d;
            return this;
        }

        /** When the pod's PodScheduled condition last turned True; null: not known. */
        public Builder scheduledTime(Instant t) {
            scheduledTime = t;
            return this;
        }

        /** Volcano's RevocableZone ("*" or ""), see {@link TaskInfo#revocableZoneOf}. */
        public Builder revocableZone(String z) {
            revocableZone = z;
            return this;
        }

        /** Its {@code spec.preemptionPolicy}; null: PreemptLowerPriority. */
        public Builder preemptionPolicy(String p) {
            preemptionPolicy = p;
            return this;
        }

        public Builder labels(Map<String, String> l) {
            spec = spec.withLabels(l);
            return this;
        }

        public TaskInfo build() {
            return new TaskInfo(
                    name,
                    role,
                    resreq,
                    nodeSelector,
                    affinity,
                    tolerations,
                    priority,
                    preemptable,
                    status,
                    nodeName,
                    spec,
                    cooldownTime,
                    scheduledTime,
                    revocableZone,
                    preemptionPolicy);
        }
    }
}
