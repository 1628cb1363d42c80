package io.lahar.core.scheduling.plugins;

import static io.lahar.core.scheduling.Fixtures.gang;
import static io.lahar.core.scheduling.Fixtures.nodes;
import static io.lahar.core.scheduling.Fixtures.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.scheduling.Fixtures;
import io.lahar.core.scheduling.framework.Arguments;
import io.lahar.core.scheduling.framework.SessionResult;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class BinpackTest {

    private static Map<String, Long> perNode(SessionResult r) {
        return r.bindings().stream()
                .collect(Collectors.groupingBy(
                        SessionResult.Binding::node, java.util.TreeMap::new, Collectors.counting()));
    }

    @Test
    void fillsANodeBeforeTheNext() {
        var conf = Fixtures.conf("""
                actions: "enqueue, allocate"
                tiers:
                - plugins: [{name: priority}, {name: gang}]
                - plugins: [{name: predicates}, {name: proportion}, {name: binpack}]
                """);
        SessionResult r = run(conf, nodes(3, "4", "16Gi"), List.of(), List.of(gang("j", "default", 6, 1, "1")));
        assertThat(perNode(r)).containsExactly(Map.entry("n0", 4L), Map.entry("n1", 2L));
    }

    @Test
    void leastRequestedSpreadsInstead() {
        var conf = Fixtures.conf("""
                actions: "enqueue, allocate"
                tiers:
                - plugins: [{name: priority}, {name: gang}]
                - plugins: [{name: predicates}, {name: proportion}, {name: nodeorder}]
                """);
        SessionResult r = run(conf, nodes(3, "4", "16Gi"), List.of(), List.of(gang("j", "default", 6, 1, "1")));
        assertThat(perNode(r)).containsExactly(Map.entry("n0", 2L), Map.entry("n1", 2L), Map.entry("n2", 2L));
    }

    @Test
    void weightsExtendedResourcesAndRejectsBadArguments() {
        Binpack b =
                new Binpack(Arguments.of("binpack.resources", "nvidia.com/gpu", "binpack.resources.nvidia.com/gpu", 5));
        assertThat(b.name()).isEqualTo("binpack");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new Binpack(Arguments.of("binpack.cpu", "lots")))
                .hasMessageContaining("binpack.cpu");
    }
}
