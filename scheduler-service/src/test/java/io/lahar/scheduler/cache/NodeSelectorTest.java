package io.lahar.scheduler.cache;

import static io.lahar.scheduler.Records.createPod;
import static io.lahar.scheduler.Records.intent;
import static io.lahar.scheduler.Records.node;
import static io.lahar.scheduler.Records.podGroup;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lahar.core.scheduling.api.NodeInfo;
import io.lahar.core.scheduling.framework.Scheduler;
import io.lahar.core.scheduling.framework.SessionResult;
import io.lahar.scheduler.Records;
import io.lahar.scheduler.loop.SessionDecisions;
import io.lahar.schema.Bind;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class NodeSelectorTest {

    @Test
    void parsesKeyValuePairsAndEmptyMeansAllNodes() {
        assertThat(NodeSelector.parse(" pool:batch , zone:a ").labels())
                .isEqualTo(Map.of("pool", "batch", "zone", "a"));
        assertThat(NodeSelector.parse("lahar.io/pool:sys-1").labels()).isEqualTo(Map.of("lahar.io/pool", "sys-1"));
        assertThat(NodeSelector.parse("").selectsAll()).isTrue();
        assertThat(NodeSelector.parse("  ").selectsAll()).isTrue();
        assertThat(NodeSelector.parse(null).selectsAll()).isTrue();
    }

    @Test
    void everyMalformedEntryIsNamed() {
        assertThatThrownBy(() -> NodeSelector.parse("pool,:x,zone:a,zone:b"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("lahar.scheduler.node-selector[0]: \"pool\" is not key:value; "
                        + "lahar.scheduler.node-selector[1]: \":x\" is not key:value; "
                        + "lahar.scheduler.node-selector[3]: label zone is already required to be \"a\"");
    }

    @Test
    void aNodeMatchesOnlyWithAllTheLabelsAndTheirValues() {
        NodeSelector selector = NodeSelector.parse("pool:batch,zone:a");

        assertThat(selector.matches(node("n", "1", "1Gi", Map.of("pool", "batch", "zone", "a", "x", "y"), List.of())))
                .isTrue();
        assertThat(selector.matches(node("n", "1", "1Gi", Map.of("pool", "batch"), List.of())))
                .isFalse();
        assertThat(selector.matches(node("n", "1", "1Gi", Map.of("pool", "batch", "zone", "b"), List.of())))
                .isFalse();
        assertThat(NodeSelector.ALL.matches(node("n", "1", "1Gi", Map.of(), List.of())))
                .isTrue();
    }

    @Test
    void theCacheSchedulesOnlyOntoSelectedNodesAndForgetsANodeThatStopsMatching() {
        SchedulerCache cache = new SchedulerCache(Set.of("volcano"), NodeSelector.parse("pool:mine"));
        cache.onNode("big-other", node("big-other", "64", "256Gi", Map.of("pool", "theirs"), List.of()));
        cache.onNode("mine-0", node("mine-0", "4", "8Gi", Map.of("pool", "mine"), List.of()));
        cache.onQueue("q", Records.queue("q", 1));
        cache.onPodGroup("ns/a", podGroup("ns", "a", "q", 2, "Inqueue", 0));
        for (int i = 0; i < 2; i++) {
            cache.onPodIntent(
                    "ns/a",
                    intent("ns", "a", createPod("a", "w", i, "volcano", "1").build()));
        }

        assertThat(cache.snapshot().nodes()).extracting(NodeInfo::name).containsExactly("mine-0");
        var snapshot = cache.snapshot();
        SessionResult result = Scheduler.withDefaults().schedule(snapshot);
        SessionDecisions.Outcome outcome = SessionDecisions.apply(cache, snapshot, result, 1, "s", Records.T0);
        assertThat(outcome.decisions())
                .filteredOn(d -> d.getDecision() instanceof Bind)
                .extracting(d -> ((Bind) d.getDecision()).getNode())
                .containsExactly("mine-0", "mine-0");

        cache.onNode("mine-0", node("mine-0", "4", "8Gi", Map.of("pool", "moved"), List.of()));
        assertThat(cache.snapshot().nodes()).isEmpty();
    }
}
