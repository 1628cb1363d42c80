package io.lahar.core.scheduling.plugins;

import static io.lahar.core.scheduling.plugins.InterPodAffinity.AFFINITY_NOT_MATCH;
import static io.lahar.core.scheduling.plugins.InterPodAffinity.ANTI_AFFINITY_NOT_MATCH;
import static io.lahar.core.scheduling.plugins.InterPodAffinity.EXISTING_ANTI_AFFINITY_NOT_MATCH;
import static io.lahar.core.scheduling.plugins.Pods.doesNotExist;
import static io.lahar.core.scheduling.plugins.Pods.exists;
import static io.lahar.core.scheduling.plugins.Pods.in;
import static io.lahar.core.scheduling.plugins.Pods.node;
import static io.lahar.core.scheduling.plugins.Pods.notIn;
import static io.lahar.core.scheduling.plugins.Pods.pod;
import static io.lahar.core.scheduling.plugins.Pods.term;
import static io.lahar.core.scheduling.plugins.Pods.want;
import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.scheduling.api.NodeInfo;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The InterPodAffinity filter against Kubernetes' own tables:
 * {@code TestRequiredAffinitySingleNode} and {@code TestRequiredAffinityMultipleNodes}
 * (pkg/scheduler/framework/plugins/interpodaffinity/filtering_test.go). A term Kubernetes' table
 * builds without a topology key (which the API server would refuse) is given {@code region} here;
 * its expectation stays the same.
 */
class InterPodAffinityTest {

    record Case(String name, List<NodeInfo> nodes, List<Pods> existing, Pods incoming, Map<String, String> want) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Pods existing() {
        return pod("existing").label("service", "securityscan").on("node1");
    }

    /** TestRequiredAffinitySingleNode: node1 in region r1, zone z11. */
    static Stream<Case> requiredAffinitySingleNode() {
        List<NodeInfo> one = List.of(node("node1", "region", "r1", "zone", "z11"));
        List<NodeInfo> two = List.of(node("node1", "region", "r1", "zone", "z11"), node("node2", "region", "r2"));
        return Stream.of(
                new Case(
                        "A pod that has no required pod affinity scheduling rules can schedule onto a node with no existing pods",
                        one,
                        List.of(),
                        pod("p"),
                        want("node1", null)),
                new Case(
                        "satisfies with requiredDuringSchedulingIgnoredDuringExecution in PodAffinity using In operator that matches the existing pod",
                        one,
                        List.of(existing()),
                        pod("p").label("security", "S1")
                                .affinity(term("region", in("service", "securityscan", "value2"))),
                        want("node1", null)),
                new Case(
                        "satisfies the pod with requiredDuringSchedulingIgnoredDuringExecution in PodAffinity using not in operator in labelSelector that matches the existing pod",
                        one,
                        List.of(existing()),
                        pod("p").label("security", "S1")
                                .affinity(term("region", notIn("service", "securityscan3", "value3"))),
                        want("node1", null)),
                new Case(
                        "Does not satisfy the PodAffinity with labelSelector because of diff Namespace",
                        one,
                        List.of(pod("ns", "other")
                                .label("service", "securityscan")
                                .on("node1")),
                        pod("p").label("security", "S1")
                                .affinity(term(
                                        "region", Set.of("diffnamespace"), in("service", "securityscan", "value2"))),
                        want("node1", AFFINITY_NOT_MATCH)),
                new Case(
                        "Doesn't satisfy the PodAffinity because of unmatching labelSelector with the existing pod",
                        one,
                        List.of(existing()),
                        pod("p").label("service", "securityscan")
                                .affinity(term("region", in("service", "antivirusscan", "value2"))),
                        want("node1", AFFINITY_NOT_MATCH)),
                new Case(
                        "satisfies the PodAffinity with different label Operators in multiple RequiredDuringSchedulingIgnoredDuringExecution",
                        one,
                        List.of(existing()),
                        pod("p").label("security", "S1")
                                .affinity(term("region", exists("service"), doesNotExist("wrongkey")))
                                .affinity(
                                        term("region", in("service", "securityscan"), notIn("service", "WrongValue"))),
                        want("node1", null)),
                new Case(
                        "The labelSelector requirements(items of matchExpressions) are ANDed, the pod cannot schedule onto the node because one of the matchExpression item don't match.",
                        one,
                        List.of(existing()),
                        pod("p").label("security", "S1")
                                .affinity(term("region", exists("service"), doesNotExist("wrongkey")))
                                .affinity(
                                        term("region", in("service", "securityscan2"), notIn("service", "WrongValue"))),
                        want("node1", AFFINITY_NOT_MATCH)),
                new Case(
                        "satisfies the PodAffinity and PodAntiAffinity with the existing pod",
                        one,
                        List.of(existing()),
                        pod("p").label("security", "S1")
                                .affinity(term("region", in("service", "securityscan", "value2")))
                                .antiAffinity(term("node", in("service", "antivirusscan", "value2"))),
                        want("node1", null)),
                new Case(
                        "satisfies the PodAffinity and PodAntiAffinity and PodAntiAffinity symmetry with the existing pod",
                        one,
                        List.of(existing().antiAffinity(term("node", in("service", "antivirusscan", "value2")))),
                        pod("p").label("security", "S1")
                                .affinity(term("region", in("service", "securityscan", "value2")))
                                .antiAffinity(term("node", in("service", "antivirusscan", "value2"))),
                        want("node1", null)),
                new Case(
                        "satisfies the PodAffinity but doesn't satisfy the PodAntiAffinity with the existing pod",
                        one,
                        List.of(existing()),
                        pod("p").label("security", "S1")
                                .affinity(term("region", in("service", "securityscan", "value2")))
                                .antiAffinity(term("zone", in("service", "securityscan", "value2"))),
                        want("node1", ANTI_AFFINITY_NOT_MATCH)),
                new Case(
                        "satisfies the PodAffinity and PodAntiAffinity but doesn't satisfy PodAntiAffinity symmetry with the existing pod",
                        one,
                        List.of(existing().antiAffinity(term("zone", in("service", "securityscan", "value2")))),
                        pod("p").label("service", "securityscan")
                                .affinity(term("region", in("service", "securityscan", "value2")))
                                .antiAffinity(term("node", in("service", "antivirusscan", "value2"))),
                        want("node1", EXISTING_ANTI_AFFINITY_NOT_MATCH)),
                new Case(
                        "pod matches its own Label in PodAffinity and that matches the existing pod Labels",
                        two,
                        List.of(pod("other").label("service", "securityscan").on("node2")),
                        pod("p").label("service", "securityscan")
                                .affinity(term("region", notIn("service", "securityscan", "value2"))),
                        want("node1", AFFINITY_NOT_MATCH, "node2", AFFINITY_NOT_MATCH)),
                new Case(
                        "verify that PodAntiAffinity from existing pod is respected when pod has no AntiAffinity constraints. doesn't satisfy PodAntiAffinity symmetry with the existing pod",
                        one,
                        List.of(existing().antiAffinity(term("zone", in("service", "securityscan", "value2")))),
                        pod("p").label("service", "securityscan"),
                        want("node1", EXISTING_ANTI_AFFINITY_NOT_MATCH)),
                new Case(
                        "verify that PodAntiAffinity from existing pod is respected when pod has no AntiAffinity constraints. satisfy PodAntiAffinity symmetry with the existing pod",
                        one,
                        List.of(existing().antiAffinity(term("zone", notIn("service", "securityscan", "value2")))),
                        pod("p").label("service", "securityscan"),
                        want("node1", null)),
                new Case(
                        "satisfies the PodAntiAffinity with existing pod but doesn't satisfy PodAntiAffinity symmetry with incoming pod",
                        one,
                        List.of(pod("other")
                                .label("security", "S1")
                                .on("node1")
                                .antiAffinity(term("zone", exists("security")))),
                        pod("p").label("service", "securityscan")
                                .antiAffinity(term("region", exists("service")))
                                .antiAffinity(term("region", exists("security"))),
                        want("node1", ANTI_AFFINITY_NOT_MATCH)),
                new Case(
                        "PodAntiAffinity symmetry check a1: incoming pod and existing pod partially match each other on AffinityTerms",
                        one,
                        List.of(pod("other")
                                .label("security", "S1")
                                .on("node1")
                                .antiAffinity(term("zone", exists("security")))),
                        pod("p").label("service", "securityscan")
                                .antiAffinity(term("zone", exists("service")))
                                .antiAffinity(term("zone", exists("security"))),
                        want("node1", ANTI_AFFINITY_NOT_MATCH)),
                new Case(
                        "PodAntiAffinity symmetry check a2: incoming pod and existing pod partially match each other on AffinityTerms",
                        one,
                        List.of(existing()
                                .antiAffinity(term("zone", exists("service")))
                                .antiAffinity(term("zone", exists("security")))),
                        pod("p").label("security", "S1").antiAffinity(term("zone", exists("security"))),
                        want("node1", EXISTING_ANTI_AFFINITY_NOT_MATCH)),
                new Case(
                        "PodAntiAffinity symmetry check b1: incoming pod and existing pod partially match each other on AffinityTerms",
                        one,
                        List.of(pod("other")
                                .label("def", "")
                                .label("xyz", "")
                                .on("node1")
                                .antiAffinity(term("zone", exists("abc")))
                                .antiAffinity(term("zone", exists("def")))),
                        pod("p").label("abc", "")
                                .label("xyz", "")
                                .antiAffinity(term("zone", exists("abc")))
                                .antiAffinity(term("zone", exists("def"))),
                        want("node1", ANTI_AFFINITY_NOT_MATCH)),
                new Case(
                        "PodAntiAffinity symmetry check b2: incoming pod and existing pod partially match each other on AffinityTerms",
                        one,
                        List.of(pod("other")
                                .label("abc", "")
                                .label("xyz", "")
                                .on("node1")
                                .antiAffinity(term("zone", exists("abc")))
                                .antiAffinity(term("zone", exists("def")))),
                        pod("p").label("def", "")
                                .label("xyz", "")
                                .antiAffinity(term("zone", exists("abc")))
                                .antiAffinity(term("zone", exists("def"))),
                        want("node1", ANTI_AFFINITY_NOT_MATCH)));
    }

    /** TestRequiredAffinityMultipleNodes. */
    static Stream<Case> requiredAffinityMultipleNodes() {
        List<NodeInfo> china = List.of(
                node("nodeA", "region", "China"),
                node("nodeB", "region", "China", "az", "az1"),
                node("nodeC", "region", "India"));
        List<NodeInfo> zonesR1 =
                List.of(node("nodeA", "region", "r1", "zone", "z1"), node("nodeB", "region", "r1", "zone", "z2"));
        return Stream.of(
                new Case(
                        "A pod can be scheduled onto all the nodes that have the same topology key & label value with one of them has an existing pod that matches the affinity rules",
                        china,
                        List.of(pod("p1").label("foo", "bar").on("nodeA")),
                        pod("p").affinity(term("region", in("foo", "bar"))),
                        want("nodeA", null, "nodeB", null, "nodeC", AFFINITY_NOT_MATCH)),
                new Case(
                        "The affinity rule is to schedule all of the pods of this collection to the same zone. The first pod of the collection should not be blocked from being scheduled onto any node, even there's no existing pod that matches the rule anywhere.",
                        List.of(node("nodeA", "zone", "az1"), node("nodeB", "zone", "az2")),
                        List.of(pod("p1").label("foo", "bar").on("nodeA")),
                        pod("p").label("foo", "bar")
                                .label("service", "securityscan")
                                .affinity(term("zone", in("foo", "bar")))
                                .affinity(term("zone", in("service", "securityscan"))),
                        want("nodeA", null, "nodeB", null)),
                new Case(
                        "The first pod of the collection can only be scheduled on nodes labelled with the requested topology keys",
                        List.of(node("nodeA", "zoneLabel", "az1"), node("nodeB", "zoneLabel", "az2")),
                        List.of(pod("p1").label("foo", "bar").on("nodeA")),
                        pod("p").label("foo", "bar")
                                .label("service", "securityscan")
                                .affinity(term("zone", in("foo", "bar")))
                                .affinity(term("zone", in("service", "securityscan"))),
                        want("nodeA", AFFINITY_NOT_MATCH, "nodeB", AFFINITY_NOT_MATCH)),
                new Case(
                        "NodeA and nodeB have same topologyKey and label value. NodeA has an existing pod that matches the inter pod affinity rule. The pod can not be scheduled onto nodeA and nodeB.",
                        List.of(node("nodeA", "region", "r1"), node("nodeB", "region", "r1")),
                        List.of(pod("p1").label("foo", "abc").on("nodeA")),
                        pod("p").antiAffinity(term("region", in("foo", "abc"))),
                        want("nodeA", ANTI_AFFINITY_NOT_MATCH, "nodeB", ANTI_AFFINITY_NOT_MATCH)),
                new Case(
                        "This test ensures that anti-affinity matches a pod when any term of the anti-affinity rule matches a pod.",
                        zonesR1,
                        List.of(pod("p1")
                                .label("foo", "abc")
                                .label("service", "securityscan")
                                .on("nodeA")),
                        pod("p").antiAffinity(term("region", in("foo", "abc")))
                                .antiAffinity(term("zone", in("service", "securityscan"))),
                        want("nodeA", ANTI_AFFINITY_NOT_MATCH, "nodeB", ANTI_AFFINITY_NOT_MATCH)),
                new Case(
                        "NodeA and nodeB have same topologyKey and label value. NodeA has an existing pod that matches the inter pod affinity rule. The pod can not be scheduled onto nodeA and nodeB but can be scheduled onto nodeC",
                        china,
                        List.of(pod("p1").label("foo", "abc").on("nodeA")),
                        pod("p").antiAffinity(term("region", in("foo", "abc"))),
                        want("nodeA", ANTI_AFFINITY_NOT_MATCH, "nodeB", ANTI_AFFINITY_NOT_MATCH, "nodeC", null)),
                new Case(
                        "... but can be scheduled onto nodeC (NodeC has an existing pod that match the inter pod affinity rule but in different namespace)",
                        china,
                        List.of(
                                pod("ns1", "p1").label("foo", "bar").on("nodeA"),
                                pod("ns2", "p2").on("nodeC").antiAffinity(term("region", in("foo", "123")))),
                        pod("ns1", "p").label("foo", "123").antiAffinity(term("region", in("foo", "bar"))),
                        want("nodeA", ANTI_AFFINITY_NOT_MATCH, "nodeB", ANTI_AFFINITY_NOT_MATCH, "nodeC", null)),
                new Case(
                        "Test existing pod's anti-affinity: if an existing pod has a term with invalid topologyKey, labelSelector of the term is firstly checked, and then topologyKey of the term is also checked",
                        List.of(
                                node("nodeA", "region", "r1", "zone", "z1"),
                                node("nodeB", "region", "r1", "zone", "z1")),
                        List.of(pod("p1").on("nodeA").antiAffinity(term("invalid-node-label", exists("foo")))),
                        pod("p").label("foo", ""),
                        want("nodeA", null, "nodeB", null)),
                new Case(
                        "Test existing pod's anti-affinity: incoming pod wouldn't considered as a fit as it violates each existingPod's terms on all nodes",
                        zonesR1,
                        List.of(
                                pod("p1").on("nodeA").antiAffinity(term("zone", exists("foo"))),
                                pod("p2").on("nodeA").antiAffinity(term("region", exists("bar")))),
                        pod("p").label("foo", "").label("bar", ""),
                        want("nodeA", EXISTING_ANTI_AFFINITY_NOT_MATCH, "nodeB", EXISTING_ANTI_AFFINITY_NOT_MATCH)),
                new Case(
                        "Test incoming pod's anti-affinity: incoming pod wouldn't considered as a fit as it at least violates one anti-affinity rule of existingPod",
                        zonesR1,
                        List.of(
                                pod("p1").label("foo", "").on("nodeA"),
                                pod("p2").label("bar", "").on("nodeB")),
                        pod("p").antiAffinity(term("zone", exists("foo"))).antiAffinity(term("region", exists("bar"))),
                        want("nodeA", ANTI_AFFINITY_NOT_MATCH, "nodeB", ANTI_AFFINITY_NOT_MATCH)),
                new Case(
                        "Test existing pod's anti-affinity: only when labelSelector and topologyKey both match, it's counted as a single term match - case when one term has invalid topologyKey",
                        zonesR1,
                        List.of(pod("p1")
                                .on("nodeA")
                                .antiAffinity(term("invalid-node-label", exists("foo")))
                                .antiAffinity(term("zone", exists("bar")))),
                        pod("p").label("foo", "").label("bar", ""),
                        want("nodeA", EXISTING_ANTI_AFFINITY_NOT_MATCH, "nodeB", null)),
                new Case(
                        "Test incoming pod's anti-affinity: only when labelSelector and topologyKey both match, it's counted as a single term match - case when one term has invalid topologyKey",
                        zonesR1,
                        List.of(pod("podA").label("foo", "").label("bar", "").on("nodeA")),
                        pod("p").antiAffinity(term("invalid-node-label", exists("foo")))
                                .antiAffinity(term("zone", exists("bar"))),
                        want("nodeA", ANTI_AFFINITY_NOT_MATCH, "nodeB", null)),
                new Case(
                        "Test existing pod's anti-affinity: only when labelSelector and topologyKey both match, it's counted as a single term match - case when all terms have valid topologyKey",
                        zonesR1,
                        List.of(pod("p1")
                                .on("nodeA")
                                .antiAffinity(term("region", exists("foo")))
                                .antiAffinity(term("zone", exists("bar")))),
                        pod("p").label("foo", "").label("bar", ""),
                        want("nodeA", EXISTING_ANTI_AFFINITY_NOT_MATCH, "nodeB", EXISTING_ANTI_AFFINITY_NOT_MATCH)),
                new Case(
                        "Test incoming pod's anti-affinity: only when labelSelector and topologyKey both match, it's counted as a single term match - case when all terms have valid topologyKey",
                        zonesR1,
                        List.of(pod("p1").label("foo", "").label("bar", "").on("nodeA")),
                        pod("p").antiAffinity(term("region", exists("foo"))).antiAffinity(term("zone", exists("bar"))),
                        want("nodeA", ANTI_AFFINITY_NOT_MATCH, "nodeB", ANTI_AFFINITY_NOT_MATCH)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource({"requiredAffinitySingleNode", "requiredAffinityMultipleNodes"})
    void filtersAsKubernetes(Case c) {
        Map<String, String> got = Pods.filter(c.nodes(), c.existing(), c.incoming());
        Map<String, String> relevant = new LinkedHashMap<>();
        for (String n : c.want().keySet()) relevant.put(n, got.get(n));
        assertThat(relevant).isEqualTo(c.want());
    }

    /** Kubernetes' namespaceSelector: an existing pod in a namespace whose labels match counts. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("namespaceSelectorCases")
    void namespaceSelectorMatchesTheNamespacesLabels(
            String name, io.lahar.core.scheduling.api.LabelSelector nsSelector, String want) {
        List<NodeInfo> nodes = List.of(node("node1", "zone", "z1"));
        Pods other = pod("team-a", "other").label("app", "db").on("node1");
        Pods incoming = pod("p").antiAffinity(new io.lahar.core.scheduling.api.PodAffinityTerm(
                Pods.selector(in("app", "db")), Set.of(), nsSelector, "zone"));
        assertThat(Pods.filter(nodes, List.of(other), incoming).get("node1")).isEqualTo(want);
    }

    static Stream<org.junit.jupiter.params.provider.Arguments> namespaceSelectorCases() {
        List<org.junit.jupiter.params.provider.Arguments> out = new ArrayList<>();
        out.add(org.junit.jupiter.params.provider.Arguments.of(
                "no selector: the pod's own namespace only", null, null));
        out.add(org.junit.jupiter.params.provider.Arguments.of(
                "empty selector: every namespace",
                io.lahar.core.scheduling.api.LabelSelector.EVERYTHING,
                ANTI_AFFINITY_NOT_MATCH));
        out.add(org.junit.jupiter.params.provider.Arguments.of(
                "the name label Kubernetes gives every namespace",
                io.lahar.core.scheduling.api.LabelSelector.of(Map.of("kubernetes.io/metadata.name", "team-a")),
                ANTI_AFFINITY_NOT_MATCH));
        out.add(org.junit.jupiter.params.provider.Arguments.of(
                "another namespace's name",
                io.lahar.core.scheduling.api.LabelSelector.of(Map.of("kubernetes.io/metadata.name", "team-b")),
                null));
        return out.stream();
    }
}
