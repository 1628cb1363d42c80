package io.lahar.core.scheduling.plugins;

import static io.lahar.core.scheduling.Fixtures.boundIn;
import static io.lahar.core.scheduling.Fixtures.key;
import static io.lahar.core.scheduling.Fixtures.nodes;
import static io.lahar.core.scheduling.Fixtures.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.resource.Resource;
import io.lahar.core.scheduling.api.JobInfo;
import io.lahar.core.scheduling.framework.SessionResult;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DrfTest {

    @Test
    void dominantShareIsTheLargestFraction() {
        Resource total = Resource.parse(Map.of("cpu", "10", "memory", "100Gi"));
        assertThat(Drf.share(Resource.parse(Map.of("cpu", "2", "memory", "50Gi")), total))
                .isEqualTo(0.5);
        assertThat(Drf.share(Resource.parse(Map.of("cpu", "3", "memory", "1Gi")), total))
                .isEqualTo(0.3);
        assertThat(Drf.share(Resource.parse(Map.of("nvidia.com/gpu", "1")), total))
                .isEqualTo(1.0);
    }

    @Test
    void aScalarCountsWhereAllocatedAndPodsNever() {
        Resource total = Resource.parse(Map.of("cpu", "10", "memory", "100Gi", "nvidia.com/gpu", "8", "pods", "4"));
        assertThat(Drf.share(Resource.parse(Map.of("cpu", "1", "nvidia.com/gpu", "6")), total))
                .isEqualTo(0.75);
        // A scalar of the total alone is a share of 0: the cpu's decides.
        assertThat(Drf.share(Resource.parse(Map.of("cpu", "1")), total)).isEqualTo(0.1);
        assertThat(Drf.share(Resource.parse(Map.of("cpu", "1", "pods", "4")), total))
                .isEqualTo(0.1);
        assertThat(Drf.share(Resource.EMPTY, total)).isZero();
    }

    @Test
    void jobsTakeTurnsBySmallestDominantShare() {
        // Two elastic jobs (minMember 1) in one queue: drf alternates, so they end level.
        var conf = io.lahar.core.scheduling.Fixtures.conf("""
                actions: "enqueue, allocate"
                tiers:
                - plugins: [{name: gang}]
                - plugins: [{name: drf}, {name: predicates}]
                """);
        JobInfo a = JobInfo.builder("a")
                .tasks("w", 6, Map.of("cpu", "1"))
                .minMember(1)
                .creationIndex(1)
                .build();
        JobInfo b = JobInfo.builder("b")
                .tasks("w", 6, Map.of("cpu", "1"))
                .minMember(1)
                .creationIndex(2)
                .build();
        SessionResult r = run(conf, nodes(2, "3", "8Gi"), List.of(), List.of(a, b));
        assertThat(boundIn(r, key("a"))).isEqualTo(3);
        assertThat(boundIn(r, key("b"))).isEqualTo(3);
    }
}
