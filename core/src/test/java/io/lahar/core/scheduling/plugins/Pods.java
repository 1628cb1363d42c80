package io.lahar.core.scheduling.plugins;

import io.lahar.core.api.PodGroupPhase;
import io.lahar.core.scheduling.api.HostPort;
import io.lahar.core.scheduling.api.JobInfo;
import io.lahar.core.scheduling.api.LabelSelector;
import io.lahar.core.scheduling.api.LabelSelector.Operator;
import io.lahar.core.scheduling.api.LabelSelector.Requirement;
import io.lahar.core.scheduling.api.NodeInfo;
import io.lahar.core.scheduling.api.PodAffinityTerm;
import io.lahar.core.scheduling.api.PodSpec;
import io.lahar.core.scheduling.api.PreferredSchedulingTerm;
import io.lahar.core.scheduling.api.Snapshot;
import io.lahar.core.scheduling.api.TaskInfo;
import io.lahar.core.scheduling.api.TaskStatus;
import io.lahar.core.scheduling.api.TopologySpreadConstraint;
import io.lahar.core.scheduling.api.WeightedPodAffinityTerm;
import io.lahar.core.scheduling.framework.Functions.NodeCheck;
import io.lahar.core.scheduling.framework.PluginRegistry;
import io.lahar.core.scheduling.framework.SchedulerConf;
import io.lahar.core.scheduling.framework.Session;
import io.lahar.core.scheduling.framework.SessionNode;
import io.lahar.core.scheduling.framework.SessionTask;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Pods for the inter-pod tables, built as Kubernetes' scheduler tests build them
 * ({@code st.MakePod().Labels(..).PodAffinityIn(..)}): labels, terms, spread constraints, ports.
 */
final class Pods {
    private final String namespace;
    private final String name;
    private final Map<String, String> labels = new LinkedHashMap<>();
    private final List<PodAffinityTerm> affinity = new ArrayList<>();
    private final List<PodAffinityTerm> anti = new ArrayList<>();
    private final List<WeightedPodAffinityTerm> preferredAffinity = new ArrayList<>();
    private final List<WeightedPodAffinityTerm> preferredAnti = new ArrayList<>();
    private final List<PreferredSchedulingTerm> preferredNode = new ArrayList<>();
    private final List<TopologySpreadConstraint> spread = new ArrayList<>();
    private final List<HostPort> ports = new ArrayList<>();
    private String node;
    private TaskStatus status = TaskStatus.Pending;
    private final Map<String, String> nodeSelector = new LinkedHashMap<>();
    private io.lahar.core.scheduling.api.NodeAffinity nodeAffinity;

    private Pods(String namespace, String name) {
        this.namespace = namespace;
        this.name = name;
    }

    static Pods pod(String name) {
        return new Pods("default", name);
    }

    static Pods pod(String namespace, String name) {
        return new Pods(namespace, name);
    }

    Pods label(String k, String v) {
        labels.put(k, v);
        return this;
    }

    Pods affinity(PodAffinityTerm t) {
        affinity.add(t);
        return this;
    }

    Pods antiAffinity(PodAffinityTerm t) {
        anti.add(t);
        return this;
    }

    Pods preferredAffinity(int weight, PodAffinityTerm t) {
        preferredAffinity.add(new WeightedPodAffinityTerm(weight, t));
        return this;
    }

    Pods preferredAntiAffinity(int weight, PodAffinityTerm t) {
        preferredAnti.add(new WeightedPodAffinityTerm(weight, t));
        return this;
    }

    Pods preferredNode(PreferredSchedulingTerm t) {
        preferredNode.add(t);
        return this;
    }

    Pods spread(int maxSkew, String key, TopologySpreadConstraint.WhenUnsatisfiable when, LabelSelector sel) {
        spread.add(new TopologySpreadConstraint(maxSkew, key, when, sel, 1, null, null));
        return this;
    }

    Pods spread(TopologySpreadConstraint c) {
        spread.add(c);
        return this;
    }

    Pods hostPort(String ip, String protocol, int port) {
        ports.add(new HostPort(ip, protocol, port));
        return this;
    }

    Pods nodeAffinity(io.lahar.core.scheduling.api.NodeAffinity a) {
        nodeAffinity = a;
        return this;
    }

    Pods nodeSelector(String k, String v) {
        nodeSelector.put(k, v);
        return this;
    }

    /** Running on a node. */
    Pods on(String n) {
        node = n;
        status = TaskStatus.Running;
        return this;
    }

    /** Being deleted (Kubernetes' terminating pod; Volcano's Releasing task). */
    Pods terminating() {
        status = TaskStatus.Releasing;
        return this;
    }

    PodSpec spec() {
        return new PodSpec(
                labels, preferredNode, affinity, anti, preferredAffinity, preferredAnti, spread, ports, List.of());
    }

    TaskInfo task() {
        TaskInfo.Builder b =
                TaskInfo.builder(name).role("r").resreq(Map.of("cpu", "100m")).spec(spec());
        nodeSelector.forEach(b::nodeSelector);
        if (nodeAffinity != null) b.affinity(nodeAffinity);
        if (node != null) b.on(node, status);
        return b.build();
    }

    /** Each pod its own single-task pod group, Running when placed, so it holds its node. */
    JobInfo job() {
        return JobInfo.builder(name)
                .namespace(namespace)
                .minMember(1)
                .phase(node == null ? PodGroupPhase.Inqueue : PodGroupPhase.Running)
                .task(task())
                .build();
    }

    // ----------------------------------------------------------------- selectors and terms

    static Requirement in(String key, String... values) {
        return new Requirement(key, Operator.In, List.of(values));
    }

    static Requirement notIn(String key, String... values) {
        return new Requirement(key, Operator.NotIn, List.of(values));
    }

    static Requirement exists(String key) {
        return new Requirement(key, Operator.Exists, List.of());
    }

    static Requirement doesNotExist(String key) {
        return new Requirement(key, Operator.DoesNotExist, List.of());
    }

    static LabelSelector selector(Requirement... rs) {
        return new LabelSelector(Map.of(), List.of(rs), false);
    }

    static PodAffinityTerm term(String topologyKey, Requirement... rs) {
        return new PodAffinityTerm(selector(rs), Set.of(), null, topologyKey);
    }

    static PodAffinityTerm term(String topologyKey, Set<String> namespaces, Requirement... rs) {
        return new PodAffinityTerm(selector(rs), namespaces, null, topologyKey);
    }

    // ----------------------------------------------------------------- nodes and expectations

    static NodeInfo node(String name, String... labels) {
        NodeInfo.Builder b = NodeInfo.builder(name).allocatable(Map.of("cpu", "8", "memory", "8Gi"));
        for (int i = 0; i + 1 < labels.length; i += 2) b.label(labels[i], labels[i + 1]);
        return b.build();
    }

    /** Node names and the reason each fails for, null where it passes. */
    static Map<String, String> want(String... nodeAndReason) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i + 1 < nodeAndReason.length; i += 2) m.put(nodeAndReason[i], nodeAndReason[i + 1]);
        return m;
    }

    // ----------------------------------------------------------------- evaluation

    /**
     * Opens a session (Volcano's default configuration) over the nodes and pods, and evaluates the
     * incoming pod's inter-pod predicates on every node as the pods stand: node name to reason, or
     * null when the node passes. A pod with nothing to check passes everywhere.
     */
    static Map<String, String> filter(List<NodeInfo> nodes, List<Pods> existing, Pods incoming) {
        List<JobInfo> jobs = new ArrayList<>();
        for (Pods p : existing) jobs.add(p.job());
        jobs.add(incoming.job());
        Session ssn =
                Session.open(SchedulerConf.defaults(), new Snapshot(nodes, List.of(), jobs), PluginRegistry.defaults());
        SessionTask task =
                ssn.job(incoming.namespace + "/" + incoming.name).tasks().get(0);
        NodeCheck check = ssn.prePredicate(task);
        Map<String, String> out = new LinkedHashMap<>();
        for (SessionNode n : ssn.nodes()) out.put(n.name(), check == null ? null : check.check(n));
        return out;
    }
}
