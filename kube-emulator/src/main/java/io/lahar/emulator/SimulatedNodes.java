package io.lahar.emulator;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.NodeConditionBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The simulated nodes: Node objects a real kubelet would have registered, Ready, with capacity and
 * allocatable for cpu, memory, pods and {@code nvidia.com/gpu}, the well-known labels
 * ({@code kubernetes.io/hostname}, {@code kubernetes.io/os}, {@code kubernetes.io/arch}) plus the
 * configured ones, and the configured taints. They only exist in the API: the
 * {@link SimulatedKubelet} plays the part of their kubelets.
 */
public final class SimulatedNodes {

    /** Marks nodes this emulator made, so a reader of {@code kubectl get nodes --show-labels} knows. */
    public static final String SIMULATED_LABEL = "lahar.io/simulated-node";

    public static final String KUBELET_VERSION = "v1.32.0-lahar-sim";

    private final KubernetesClient client;
    private final Clock clock;
    private final Map<String, AtomicInteger> nextIndexByPrefix = new HashMap<>();
    private final AtomicInteger ordinal = new AtomicInteger();

    public SimulatedNodes(KubernetesClient client, Clock clock) {
        this.client = client;
        this.clock = clock;
    }

    /** Registers every node of every group; names are {@code <prefix>-<i>}, numbered on per prefix. */
    public synchronized List<Node> create(List<NodeSpec> groups) {
        List<Node> created = new ArrayList<>();
        for (NodeSpec group : groups) {
            for (int i = 0; i < group.count(); i++) {
                int index = nextIndexByPrefix
                        .computeIfAbsent(group.namePrefix(), p -> new AtomicInteger())
                        .getAndIncrement();
                created.add(add(group.namePrefix() + "-" + index, group));
            }
        }
        return created;
    }

    /** Registers one node named {@code name} shaped like {@code spec} (its count is ignored). */
    public Node add(String name, NodeSpec spec) {
        return client.nodes()
                .resource(toNode(name, spec, ordinal.getAndIncrement(), Instant.now(clock)))
                .create();
    }

    /**
     * Deletes a node, as {@code kubectl delete node} would; the kubelet sees it go and evicts the pods
     * bound to it.
     */
    public boolean delete(String name) {
        return !client.nodes().withName(name).delete().isEmpty();
    }

    public List<Node> list() {
        return client.nodes().list().getItems();
    }

    /** The Node object for a node of this shape; {@code ordinal} makes its InternalIP unique. */
    static Node toNode(String name, NodeSpec spec, int ordinal, Instant now) {
        Map<String, Quantity> resources = new LinkedHashMap<>();
        resources.put("cpu", new Quantity(spec.cpu()));
        resources.put("memory", new Quantity(spec.memory()));
        resources.put("pods", new Quantity(Integer.toString(spec.pods())));
        resources.put("ephemeral-storage", new Quantity("100Gi"));
        if (spec.gpus() > 0) {
            resources.put("nvidia.com/gpu", new Quantity(Integer.toString(spec.gpus())));
        }
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("kubernetes.io/hostname", name);
        labels.put("kubernetes.io/os", "linux");
        labels.put("kubernetes.io/arch", "amd64");
        labels.put("type", "lahar-simulated");
        labels.put(SIMULATED_LABEL, "true");
        labels.putAll(spec.labels());
        String heartbeat = now.truncatedTo(ChronoUnit.SECONDS).toString();
        String internalIp = "10.0." + (ordinal / 250) + "." + (ordinal % 250 + 2);
        return new NodeBuilder()
                .withNewMetadata()
                .withName(name)
                .withLabels(labels)
                .addToAnnotations("node.alpha.kubernetes.io/ttl", "0")
                .endMetadata()
                .withNewSpec()
                .withTaints(spec.taints().stream()
                        .map(t -> new TaintBuilder()
                                .withKey(t.key())
                                .withValue(t.value().isEmpty() ? null : t.value())
                                .withEffect(t.effect())
                                .build())
                        .toList())
                .endSpec()
                .withNewStatus()
                .withCapacity(resources)
                .withAllocatable(resources)
                .withConditions(List.of(
                        condition(
                                "Ready",
                                "True",
                                "KubeletReady",
                                "simulated kubelet is posting ready status",
                                heartbeat),
                        condition("MemoryPressure", "False", "KubeletHasSufficientMemory", "simulated", heartbeat),
                        condition("DiskPressure", "False", "KubeletHasNoDiskPressure", "simulated", heartbeat),
                        condition("PIDPressure", "False", "KubeletHasSufficientPID", "simulated", heartbeat)))
                .addNewAddress()
                .withType("InternalIP")
                .withAddress(internalIp)
                .endAddress()
                .addNewAddress()
                .withType("Hostname")
                .withAddress(name)
                .endAddress()
                .withNewNodeInfo()
                .withKubeletVersion(KUBELET_VERSION)
                .withKubeProxyVersion(KUBELET_VERSION)
                .withOperatingSystem("linux")
                .withArchitecture("amd64")
                .withOsImage("Lahar simulated node")
                .withKernelVersion("n/a")
                .withContainerRuntimeVersion("lahar-sim://1.0")
                .withMachineID(name)
                .withSystemUUID(name)
                .withBootID(name)
                .endNodeInfo()
                .endStatus()
                .build();
    }

    private static NodeCondition condition(String type, String status, String reason, String message, String at) {
        return new NodeConditionBuilder()
                .withType(type)
                .withStatus(status)
                .withReason(reason)
                .withMessage(message)
                .withLastHeartbeatTime(at)
                .withLastTransitionTime(at)
                .build();
    }
}
