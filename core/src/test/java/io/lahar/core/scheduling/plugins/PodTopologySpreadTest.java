package io.lahar.core.scheduling.plugins;

import static io.lahar.core.scheduling.api.TopologySpreadConstraint.WhenUnsatisfiable.DoNotSchedule;
import static io.lahar.core.scheduling.plugins.PodTopologySpread.CONSTRAINTS_NOT_MATCH;
import static io.lahar.core.scheduling.plugins.PodTopologySpread.LABEL_NOT_MATCH;
import static io.lahar.core.scheduling.plugins.Pods.exists;
import static io.lahar.core.scheduling.plugins.Pods.node;
import static io.lahar.core.scheduling.plugins.Pods.pod;
import static io.lahar.core.scheduling.plugins.Pods.selector;
import static io.lahar.core.scheduling.plugins.Pods.want;
import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.scheduling.api.NodeAffinity;
import io.lahar.core.scheduling.api.NodeInfo;
import io.lahar.core.scheduling.api.NodeSelectorRequirement;
import io.lahar.core.scheduling.api.NodeSelectorTerm;
import io.lahar.core.scheduling.api.TopologySpreadConstraint;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The PodTopologySpread filter against Kubernetes' {@code TestSingleConstraint} and
 * {@code TestMultipleConstraints} (pkg/scheduler/framework/plugins/podtopologyspread/filtering_test.go),
 * plus the minDomains rule of its {@code TestPreFilterState} cases.
 */
class PodTopologySpreadTest {

    record Case(String name, List<NodeInfo> nodes, List<Pods> existing, Pods incoming, Map<String, String> want) {
        @Override
        public String toString() {
            return name;
        }
    }

    static final List<NodeInfo> FOUR = List.of(
            node("node-a", "zone", "zone1", "node", "node-a"),
            node("node-b", "zone", "zone1", "node", "node-b"),
            node("node-x", "zone", "zone2", "node", "node-x"),
            node("node-y", "zone", "zone2", "node", "node-y"));

    static Pods foo(String name, String node) {
        return pod(name).label("foo", "").on(node);
    }

    /** 2/1/0/3 on node-a, node-b, node-x, node-y. */
    static List<Pods> spread2103() {
        return List.of(
                foo("p-a1", "node-a"),
                foo("p-a2", "node-a"),
                foo("p-b1", "node-b"),
                foo("p-y1", "node-y"),
                foo("p-y2", "node-y"),
                foo("p-y3", "node-y"));
    }

    static Pods incoming(int maxSkew, String key) {
        return pod("p").label("foo", "").spread(maxSkew, key, DoNotSchedule, selector(exists("foo")));
    }

    static Stream<Case> singleConstraint() {
        List<NodeInfo> zoneTypo = List.of(
                node("node-a", "zone", "zone1", "node", "node-a"),
                node("node-b", "zon", "zone1", "node", "node-b"),
                node("node-x", "zone", "zone2", "node", "node-x"),
                node("node-y", "zone", "zone2", "node", "node-y"));
        NodeAffinity aOrY = NodeAffinity.of(NodeSelectorTerm.of(
                new NodeSelectorRequirement("node", NodeSelectorRequirement.Operator.In, List.of("node-a", "node-y"))));
        Pods withAffinity = incoming(1, "node");
        return Stream.of(
                new Case(
                        "no existing pods",
                        FOUR,
                        List.of(),
                        incoming(1, "zone"),
                        want("node-a", null, "node-b", null, "node-x", null, "node-y", null)),
                new Case(
                        "no existing pods, incoming pod doesn't match itself",
                        FOUR,
                        List.of(),
                        pod("p").label("foo", "").spread(1, "zone", DoNotSchedule, selector(exists("bar"))),
                        want("node-a", null, "node-b", null, "node-x", null, "node-y", null)),
                new Case(
                        "existing pods in a different namespace do not count",
                        FOUR,
                        List.of(
                                pod("ns1", "p-a1").label("foo", "").on("node-a"),
                                        pod("ns2", "p-b1").label("foo", "").on("node-a"),
                                foo("p-x1", "node-x"), foo("p-y1", "node-y")),
                        incoming(1, "zone"),
                        want(
                                "node-a",
                                null,
                                "node-b",
                                null,
                                "node-x",
                                CONSTRAINTS_NOT_MATCH,
                                "node-y",
                                CONSTRAINTS_NOT_MATCH)),
                new Case(
                        "pods spread across zones as 3/3, all nodes fit",
                        FOUR,
                        List.of(
                                foo("p-a1", "node-a"),
                                foo("p-a2", "node-a"),
                                foo("p-b1", "node-b"),
                                foo("p-y1", "node-y"),
                                foo("p-y2", "node-y"),
                                foo("p-y3", "node-y")),
                        incoming(1, "zone"),
                        want("node-a", null, "node-b", null, "node-x", null, "node-y", null)),
                new Case(
                        "pods spread across zones as 1/2 due to absence of label 'zone' on node-b",
                        zoneTypo,
                        List.of(
                                foo("p-a1", "node-a"),
                                foo("p-b1", "node-b"),
                                foo("p-x1", "node-x"),
                                foo("p-y1", "node-y")),
                        incoming(1, "zone"),
                        want(
                                "node-a",
                                null,
                                "node-b",
                                LABEL_NOT_MATCH,
                                "node-x",
                                CONSTRAINTS_NOT_MATCH,
                                "node-y",
                                CONSTRAINTS_NOT_MATCH)),
                new Case(
                        "pod cannot be scheduled as all nodes don't have label 'rack'",
                        List.of(node("node-a", "zone", "zone1"), node("node-x", "zone", "zone2")),
                        List.of(),
                        incoming(1, "rack"),
                        want("node-a", LABEL_NOT_MATCH, "node-x", LABEL_NOT_MATCH)),
                new Case(
                        "pods spread across nodes as 2/1/0/3, only node-x fits",
                        FOUR,
                        spread2103(),
                        incoming(1, "node"),
                        want(
                                "node-a",
                                CONSTRAINTS_NOT_MATCH,
                                "node-b",
                                CONSTRAINTS_NOT_MATCH,
                                "node-x",
                                null,
                                "node-y",
                                CONSTRAINTS_NOT_MATCH)),
                new Case(
                        "pods spread across nodes as 2/1/0/3, maxSkew is 2, node-b and node-x fit",
                        FOUR,
                        spread2103(),
                        incoming(2, "node"),
                        want(
                                "node-a",
                                CONSTRAINTS_NOT_MATCH,
                                "node-b",
                                null,
                                "node-x",
                                null,
                                "node-y",
                                CONSTRAINTS_NOT_MATCH)),
                new Case(
                        "pods spread across nodes as 2/1/0/3, but pod doesn't match itself",
                        FOUR,
                        spread2103(),
                        pod("p").label("bar", "").spread(1, "node", DoNotSchedule, selector(exists("foo"))),
                        want(
                                "node-a",
                                CONSTRAINTS_NOT_MATCH,
                                "node-b",
                                null,
                                "node-x",
                                null,
                                "node-y",
                                CONSTRAINTS_NOT_MATCH)),
                new Case(
                        "incoming pod has nodeAffinity, pods spread as 2/~1~/~0~/3, hence node-a fits",
                        FOUR,
                        spread2103(),
                        withAffinity.nodeAffinity(aOrY),
                        want("node-a", null, "node-b", null, "node-x", null, "node-y", CONSTRAINTS_NOT_MATCH)),
                new Case(
                        "terminating Pods should be excluded",
                        List.of(node("node-a", "node", "node-a"), node("node-b", "node", "node-b")),
                        List.of(foo("p-a", "node-a").terminating(), foo("p-b", "node-b")),
                        incoming(1, "node"),
                        want("node-a", null, "node-b", CONSTRAINTS_NOT_MATCH)));
    }

    static Stream<Case> multipleConstraints() {
        Pods both = pod("p").label("foo", "")
                .spread(1, "zone", DoNotSchedule, selector(exists("foo")))
                .spread(1, "node", DoNotSchedule, selector(exists("foo")));
        return Stream.of(
                new Case(
                        "two Constraints on zone and node, spreads = [3/3, 2/1/0/3]",
                        FOUR,
                        List.of(
                                foo("p-a1", "node-a"),
                                foo("p-a2", "node-a"),
                                foo("p-b1", "node-b"),
                                foo("p-y1", "node-y"),
                                foo("p-y2", "node-y"),
                                foo("p-y3", "node-y")),
                        both,
                        want(
                                "node-a",
                                CONSTRAINTS_NOT_MATCH,
                                "node-b",
                                CONSTRAINTS_NOT_MATCH,
                                "node-x",
                                null,
                                "node-y",
                                CONSTRAINTS_NOT_MATCH)),
                new Case(
                        "two Constraints on zone and node, spreads = [3/4, 2/1/0/4]",
                        FOUR,
                        List.of(
                                foo("p-a1", "node-a"),
                                foo("p-a2", "node-a"),
                                foo("p-b1", "node-b"),
                                foo("p-y1", "node-y"),
                                foo("p-y2", "node-y"),
                                foo("p-y3", "node-y"),
                                foo("p-y4", "node-y")),
                        both,
                        want(
                                "node-a",
                                CONSTRAINTS_NOT_MATCH,
                                "node-b",
                                CONSTRAINTS_NOT_MATCH,
                                "node-x",
                                CONSTRAINTS_NOT_MATCH,
                                "node-y",
                                CONSTRAINTS_NOT_MATCH)),
                new Case(
                        "minDomains 3 over two zones: the least count is taken as 0",
                        FOUR,
                        List.of(foo("p-a1", "node-a"), foo("p-x1", "node-x")),
                        pod("p").label("foo", "")
                                .spread(new TopologySpreadConstraint(
                                        1, "zone", DoNotSchedule, selector(exists("foo")), 3, null, null)),
                        want(
                                "node-a",
                                CONSTRAINTS_NOT_MATCH,
                                "node-b",
                                CONSTRAINTS_NOT_MATCH,
                                "node-x",
                                CONSTRAINTS_NOT_MATCH,
                                "node-y",
                                CONSTRAINTS_NOT_MATCH)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource({"singleConstraint", "multipleConstraints"})
    void filtersAsKubernetes(Case c) {
        Map<String, String> got = Pods.filter(c.nodes(), new ArrayList<>(c.existing()), c.incoming());
        assertThat(got).isEqualTo(c.want());
    }
}
