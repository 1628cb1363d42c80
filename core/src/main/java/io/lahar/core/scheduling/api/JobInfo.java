package io.lahar.core.scheduling.api;

import io.lahar.core.api.PodGroupPhase;
import io.lahar.core.resource.Resource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A pod group and its tasks, as Volcano's scheduler {@code api.JobInfo}.
 *
 * @param namespace     the pod group's namespace
 * @param name          the pod group's name
 * @param queue         the queue it was submitted to
 * @param minMember     how many tasks must be placed together (gang)
 * @param minTaskMember per task role, how many of that role must be placed together
 * @param minResources  the resources the gang needs to start (the enqueue gate compares it with idle)
 * @param priority      the pod group's priority
 * @param creationIndex the order of creation (earlier first), standing in for a timestamp
 * @param phase         the pod group's phase at the snapshot
 * @param creationTime  when the pod group was created (the sla plugin's clock starts there); null
 *                      when not known, taken as long ago as Kubernetes' zero time
 * @param slaWaitingTime the pod group's own {@code sla-waiting-time} annotation, null when none
 * @param subGroupPolicy the sub-gangs within the gang (a Job's partitions); empty when none
 * @param preemptable   Volcano's job Preemptable: the pod group's {@code volcano.sh/preemptable}
 *                      annotation, else label (false without either; see {@link #preemptableOf})
 * @param budget        its disruption budget, from its annotations (see {@link DisruptionBudget#of})
 */
public record JobInfo(
        String namespace,
        String name,
        String queue,
        int minMember,
        Map<String, Integer> minTaskMember,
        Resource minResources,
        int priority,
        long creationIndex,
        PodGroupPhase phase,
        List<TaskInfo> tasks,
        java.time.Instant creationTime,
        java.time.Duration slaWaitingTime,
        List<SubGroupPolicy> subGroupPolicy,
        boolean preemptable,
        DisruptionBudget budget) {

    public JobInfo {
        namespace = namespace == null || namespace.isEmpty() ? "default" : namespace;
        Objects.requireNonNull(name, "name");
        queue = queue == null || queue.isEmpty() ? "default" : queue;
        minTaskMember = minTaskMember == null ? Map.of() : Map.copyOf(minTaskMember);
        minResources = minResources == null ? Resource.EMPTY : minResources;
        phase = phase == null ? PodGroupPhase.Pending : phase;
        tasks = tasks == null ? List.of() : List.copyOf(tasks);
        subGroupPolicy = subGroupPolicy == null ? List.of() : List.copyOf(subGroupPolicy);
        budget = budget == null ? DisruptionBudget.NONE : budget;
    }

    /**
     * Volcano's extractPreemptable: the pod group's {@code volcano.sh/preemptable} annotation, else
     * its label (Go's booleans; a value Go refuses is false); false without either.
     */
    public static boolean preemptableOf(Map<String, String> labels, Map<String, String> annotations) {
        Map<String, String> a = annotations == null ? Map.of() : annotations;
        Map<String, String> l = labels == null ? Map.of() : labels;
        String key = io.lahar.core.job.plugins.PodLabels.PREEMPTABLE;
        String value = a.containsKey(key) ? a.get(key) : l.get(key);
        return io.lahar.core.api.GoBool.parse(value).orElse(false);
    }

    /** This pod group in another phase, with other tasks. */
    public JobInfo with(PodGroupPhase p, List<TaskInfo> t) {
        return with(p, priority, t);
    }

    /** This pod group in another phase, with another priority (its class's at the session) and other tasks. */
    public JobInfo with(PodGroupPhase p, int pri, List<TaskInfo> t) {
        return new JobInfo(
                namespace,
                name,
                queue,
                minMember,
                minTaskMember,
                minResources,
                pri,
                creationIndex,
                p,
                t,
                creationTime,
                slaWaitingTime,
                subGroupPolicy,
                preemptable,
                budget);
    }

    /** {@code namespace/name}, the key of every record about this pod group. */
    public String key() {
        return namespace + "/" + name;
    }

    public static Builder builder(String name) {
        return new Builder(name);
    }

    public static final class Builder {
        private String namespace = "default";
        private final String name;
        private String queue = "default";
        private int minMember = -1;
        private final Map<String, Integer> minTaskMember = new TreeMap<>();
        private Resource minResources;
        private int priority;
        private long creationIndex;
        private PodGroupPhase phase = PodGroupPhase.Pending;
        private final List<TaskInfo> tasks = new ArrayList<>();
        private java.time.Instant creationTime;
        private java.time.Duration slaWaitingTime;
        private final List<SubGroupPolicy> subGroupPolicy = new ArrayList<>();
        private boolean preemptable;
        private DisruptionBudget budget = DisruptionBudget.NONE;

        private Builder(String name) {
            this.name = name;
        }

        public Builder namespace(String ns) {
            namespace = ns;
            return this;
        }

        public Builder queue(String q) {
            queue = q;
            return this;
        }

        public Builder minMember(int m) {
            minMember = m;
            return this;
        }

        public Builder minTaskMember(String role, int m) {
            minTaskMember.put(role, m);
            return this;
        }

        public Builder minResources(Resource r) {
            minResources = r;
            return this;
        }

        public Builder priority(int p) {
            priority = p;
            return this;
        }

        public Builder creationIndex(long c) {
            creationIndex = c;
            return this;
        }

        public Builder phase(PodGroupPhase p) {
            phase = p;
            return this;
        }

        public Builder creationTime(java.time.Instant t) {
            creationTime = t;
            return this;
        }

        public Builder slaWaitingTime(java.time.Duration d) {
            slaWaitingTime = d;
            return this;
        }

        public Builder subGroupPolicy(SubGroupPolicy p) {
            subGroupPolicy.add(p);
            return this;
        }

        public Builder preemptable(boolean p) {
            preemptable = p;
            return this;
        }

        public Builder budget(DisruptionBudget b) {
            budget = b;
            return this;
        }

        public Builder task(TaskInfo t) {
            tasks.add(t);
            return this;
        }

        /**
         * Adds {@code count} identical pending tasks of one role, named {@code name-role-i}.
         */
        public Builder tasks(String role, int count, Map<String, ?> resreq) {
            Resource r = Resource.parse(resreq);
            for (int i = 0; i < count; i++) {
                tasks.add(TaskInfo.builder(name + "-" + role + "-" + i)
                        .role(role)
                        .resreq(r)
                        .build());
            }
            return this;
        }

        /**
         * Builds the job. minMember defaults to the number of tasks; minResources defaults to the
         * sum of the first minMember task requests, as Volcano's job controller computes it.
         */
        public JobInfo build() {
            int mm = minMember < 0 ? tasks.size() : minMember;
            Resource min = minResources;
            if (min == null) {
                min = Resource.EMPTY;
                for (int i = 0; i < Math.min(mm, tasks.size()); i++) {
                    min = min.add(tasks.get(i).resreq());
                }
            }
            return new JobInfo(
                    namespace,
                    name,
                    queue,
                    mm,
                    minTaskMember,
                    min,
                    priority,
                    creationIndex,
                    phase,
                    tasks,
                    creationTime,
                    slaWaitingTime,
                    subGroupPolicy,
                    preemptable,
                    budget);
        }
    }
}
