package io.lahar.core.resource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

class ResourceTest {

    private static final long GI = 1L << 30;

    @Test
    void parsesAResourceList() {
        Resource r = Resource.parse(Map.of("cpu", "2500m", "memory", "4Gi", "nvidia.com/gpu", 2, "pods", "110"));
        assertThat(r.milliCpu()).isEqualTo(2500);
        assertThat(r.memory()).isEqualTo(4 * GI);
        assertThat(r.pods()).isEqualTo(110);
        assertThat(r.get("nvidia.com/gpu")).isEqualTo(2000);
        assertThat(r).hasToString("cpu 2500m, memory 4Gi, nvidia.com/gpu 2, pods 110");
        assertThat(r.toQuantities()).containsEntry("cpu", "2500m").containsEntry("nvidia.com/gpu", "2");
    }

    @Test
    void writesAsAResourceList() throws Exception {
        var json = new com.fasterxml.jackson.databind.ObjectMapper()
                .writeValueAsString(Resource.parse(Map.of("cpu", "1500m", "memory", "2Gi")));
        assertThat(json).isEqualTo("{\"cpu\":\"1500m\",\"memory\":\"2Gi\"}");
    }

    @Test
    void namesEveryBadEntry() {
        assertThatThrownBy(() -> Resource.parse(Map.of("cpu", "two", "memory", "-1Gi", "pods", "3")))
                .hasMessageContaining("cpu: invalid quantity \"two\"")
                .hasMessageContaining("memory: must not be negative");
    }

    @Test
    void arithmetic() {
        Resource a = Resource.of(2000, 4 * GI, 0, Map.of("nvidia.com/gpu", 1000L));
        Resource b = Resource.of(500, GI);
        assertThat(a.add(b)).isEqualTo(Resource.of(2500, 5 * GI, 0, Map.of("nvidia.com/gpu", 1000L)));
        assertThat(a.sub(b).sub(a).add(b).isEmpty()).isTrue();
        assertThat(b.lessEqual(a)).isTrue();
        assertThat(a.lessEqual(b)).isFalse();
        assertThat(a.exceeding(b)).containsExactly("cpu", "memory", "nvidia.com/gpu");
        assertThat(Resource.of(0, 0, 0, Map.of("nvidia.com/gpu", 1000L)).fitsIn(Resource.of(8000, 8 * GI)))
                .isFalse();
        assertThat(b.sub(a).exceeding(Resource.EMPTY)).isEmpty();
        assertThat(b.subClamped(a)).isEqualTo(Resource.EMPTY);
        assertThat(Resource.EMPTY).hasToString("none");
        assertThat(Resource.of(1000, 0).multiply(1.2)).isEqualTo(Resource.of(1200, 0));
    }

    @Test
    void aScalarOnOneSideIsCombinedWithNoneOnTheOther() {
        Resource node = Resource.of(8000, 8 * GI, 0, Map.of("nvidia.com/gpu", 4000L, "example.com/fpga", 1000L));
        Resource task = Resource.of(1000, GI);
        assertThat(node.sub(task)).isEqualTo(Resource.of(7000, 7 * GI, 0, node.scalars()));
        assertThat(task.add(node)).isEqualTo(Resource.of(9000, 9 * GI, 0, node.scalars()));
        assertThat(task.sub(node).get("nvidia.com/gpu")).isEqualTo(-4000);
        assertThat(task.sub(node).get("example.com/fpga")).isEqualTo(-1000);
        // min and max against none: a scalar's 0 on the other side counts.
        assertThat(node.min(task).scalars()).isEmpty();
        assertThat(task.max(node).scalars()).isEqualTo(node.scalars());
        assertThat(task.sub(node).subClamped(Resource.EMPTY).scalars()).isEmpty();
    }

    @Test
    void limitsLeaveUnnamedDimensionsUnlimited() {
        Resource cap = Resource.parseLimit(Map.of("cpu", "8"));
        Resource big = Resource.of(8000, 1000 * GI, 0, Map.of("nvidia.com/gpu", 64_000L));
        assertThat(big.lessEqualWithDimension(cap)).isTrue();
        assertThat(big.add(Resource.of(1, 0)).exceedingWithDimension(cap)).containsExactly("cpu");
        assertThat(cap.add(big).memory()).isEqualTo(Resource.UNLIMITED);
        assertThat(cap.sub(big).memory()).isEqualTo(Resource.UNLIMITED);
        assertThat(cap).hasToString("cpu 8, memory unlimited, pods unlimited");
    }

    @Test
    void quantitiesAreWrittenInKubernetesCanonicalForm() {
        // What Quantity.String() of Kubernetes writes for these amounts.
        assertThat(Resource.format("cpu", 500)).isEqualTo("500m");
        assertThat(Resource.format("cpu", 2_000)).isEqualTo("2");
        assertThat(Resource.format("cpu", 2_000_000)).isEqualTo("2k");
        assertThat(Resource.format("cpu", 1_500_000_000L)).isEqualTo("1500k");
        assertThat(Resource.format("memory", 4 * GI)).isEqualTo("4Gi");
        assertThat(Resource.format("memory", 1_000_000_000L)).isEqualTo("1G");
        assertThat(Resource.format("memory", 1_500)).isEqualTo("1500");
        assertThat(Resource.format("memory", 0)).isEqualTo("0");
        assertThat(Resource.format("pods", 110)).isEqualTo("110");
        assertThat(Resource.format("nvidia.com/gpu", 8_000)).isEqualTo("8");
    }

    @Property
    void aWrittenQuantityReadsBackAsTheSameAmount(
            @ForAll @LongRange(max = 1L << 50) long cpu, @ForAll @LongRange(max = 1L << 60) long memory) {
        Resource r = Resource.of(cpu, memory);
        assertThat(Resource.parse(Map.copyOf(r.toQuantities()))).isEqualTo(r);
    }

    @Property
    void addThenSubIsIdentity(
            @ForAll @LongRange(max = 1_000_000_000L) long c1,
            @ForAll @LongRange(max = 1L << 40) long m1,
            @ForAll @LongRange(max = 1_000_000_000L) long c2,
            @ForAll @LongRange(max = 1L << 40) long m2,
            @ForAll @LongRange(max = 8000) long g) {
        Resource a = Resource.of(c1, m1, 0, Map.of("nvidia.com/gpu", g));
        Resource b = Resource.of(c2, m2);
        assertThat(a.add(b).sub(b)).isEqualTo(a);
        assertThat(a.lessEqual(a.add(b))).isTrue();
        assertThat(a.min(b).lessEqual(a.max(b))).isTrue();
    }
}
