package io.lahar.core.scheduling.plugins;

import static io.lahar.core.scheduling.Fixtures.boundIn;
import static io.lahar.core.scheduling.Fixtures.gang;
import static io.lahar.core.scheduling.Fixtures.key;
import static io.lahar.core.scheduling.Fixtures.nodes;
import static io.lahar.core.scheduling.Fixtures.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.resource.Resource;
import io.lahar.core.scheduling.api.QueueInfo;
import io.lahar.core.scheduling.framework.SessionResult;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class ProportionTest {

    private static Map<String, Long> deservedCpu(SessionResult r) {
        return r.queues().stream().filter(q -> q.deserved() != null)
                .collect(Collectors.toMap(SessionResult.QueueStatus::name, q -> q.deserved().milliCpu()));
    }

    @Test
    void whatAQueueDoesNotNeedGoesToTheOthers() {
        // Weights 1:1 but a wants only 2 of 8: b deserves the other 6.
        var queues = List.of(QueueInfo.of("a", 1), QueueInfo.of("b", 1));
        SessionResult r = run(nodes(8, "1", "4Gi"), queues, List.of(gang("ja", "a", 2, 1, "1"), gang("jb", "b", 8, 1, "1")));
        assertThat(deservedCpu(r)).containsEntry("a", 2000L).containsEntry("b", 6000L);
        assertThat(boundIn(r, key("jb"))).isEqualTo(6);
    }

    @Test
    void capabilityCapsTheDeservedShare() {
        var queues = List.of(QueueInfo.of("a", 3).withCapability(Map.of("cpu", "2")), QueueInfo.of("b", 1));
        SessionResult r = run(nodes(8, "1", "4Gi"), queues, List.of(gang("ja", "a", 8, 1, "1"), gang("jb", "b", 8, 1, "1")));
        assertThat(deservedCpu(r)).containsEntry("a", 2000L).containsEntry("b", 6000L);
        assertThat(boundIn(r, key("ja"))).isEqualTo(2);
        assertThat(boundIn(r, key("jb"))).isEqualTo(6);
    }

    @Test
    void guaranteeComesBeforeWeight() {
        var queues = List.of(QueueInfo.of("a", 1).withGuarantee(Map.of("cpu", "6")), QueueInfo.of("b", 1));
        SessionResult r = run(nodes(8, "1", "4Gi"), queues, List.of(gang("ja", "a", 8, 1, "1"), gang("jb", "b", 8, 1, "1")));
        assertThat(deservedCpu(r)).containsEntry("a", 7000L).containsEntry("b", 1000L);
    }

    @Test
    void hierarchicalQueuesDivideTheirParentsShare() {
        // root (12 cpu) -> eng (1), ops (2); eng -> ml (1), web (1).
        var queues = List.of(QueueInfo.of("eng", 1), QueueInfo.of("ops", 2),
                QueueInfo.of("ml", 1).withParent("eng"), QueueInfo.of("web", 1).withParent("eng"));
        SessionResult r = run(nodes(12, "1", "4Gi"), queues,
                List.of(gang("m", "ml", 12, 1, "1"), gang("w", "web", 12, 1, "1"), gang("o", "ops", 12, 1, "1"),
                        gang("lost", "eng", 1, 1, "1")));
        assertThat(deservedCpu(r)).containsEntry("root", 12000L).containsEntry("eng", 4000L).containsEntry("ops", 8000L)
                .containsEntry("ml", 2000L).containsEntry("web", 2000L);
        assertThat(boundIn(r, key("m"))).isEqualTo(2);
        assertThat(boundIn(r, key("w"))).isEqualTo(2);
        assertThat(boundIn(r, key("o"))).isEqualTo(8);
        assertThat(r.conditions().get(key("lost")).message()).contains("queue \"eng\" is not a leaf queue");
        SessionResult.QueueStatus eng = r.queues().stream().filter(q -> q.name().equals("eng")).findFirst().orElseThrow();
        assertThat(eng.allocated().milliCpu()).isEqualTo(4000);
    }

    @Test
    void queueShareOrdersQueues() {
        assertThat(Resource.parse(Map.of("cpu", "1")).lessEqual(Resource.parse(Map.of("cpu", "2")))).isTrue();
        // The emptier queue goes first: with one slot left b (share 0) beats a (share 1/2) despite its name.
        var queues = List.of(QueueInfo.of("a", 1), QueueInfo.of("b", 1));
        var jobs = List.of(io.lahar.core.scheduling.Fixtures.running("ra", "a", 0, "1", "n0"),
                gang("ja", "a", 1, 1, "1"), gang("jb", "b", 1, 1, "1"));
        SessionResult r = run(nodes(2, "1", "4Gi"), queues, jobs);
        assertThat(boundIn(r, key("jb"))).isEqualTo(1);
        assertThat(boundIn(r, key("ja"))).isZero();
    }

    @Test
    void aParentsCapabilityBoundsItsChildren() {
        var queues = List.of(QueueInfo.of("eng", 1).withCapability(Map.of("cpu", "4")),
                QueueInfo.of("ml", 1).withParent("eng"), QueueInfo.of("web", 1).withParent("eng"));
        SessionResult r = run(nodes(8, "1", "4Gi"), queues, List.of(gang("m", "ml", 4, 1, "1"), gang("w", "web", 4, 1, "1"),
                gang("big", "web", 4, 4, "1")));
        assertThat(boundIn(r, key("m"))).isEqualTo(2);
        assertThat(boundIn(r, key("w"))).isEqualTo(2);
        assertThat(r.conditions().get(key("big")).message())
                .contains("queue \"eng\" over its capability: cpu allocated 0 + inqueue 1 + minResources 4 > capability 4");
    }
}
