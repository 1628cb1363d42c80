package io.lahar.console.view;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class AmountsTest {

    @Test
    void mixedUnitsComeOutInOneUnitPerResource() {
        Map<String, Amounts.Amount> a = Amounts.of(Map.of(
                "cpu",
                "28400m",
                "memory",
                "128Gi",
                "ephemeral-storage",
                "429496729600",
                "nvidia.com/gpu",
                "2",
                "pods",
                "110",
                "bogus",
                "12 apples"));
        assertThat(a.get("cpu").value()).isEqualTo(28.4);
        assertThat(a.get("cpu").text()).isEqualTo("28.4");
        assertThat(a.get("memory").text()).isEqualTo("128 GiB");
        assertThat(a.get("ephemeral-storage").text()).isEqualTo("400 GiB");
        assertThat(a.get("nvidia.com/gpu").text()).isEqualTo("2");
        assertThat(a.get("pods").value()).isEqualTo(110.0);
        assertThat(a).as("a value that is no quantity is left out").doesNotContainKey("bogus");
        assertThat(Amounts.format("memory", 1536)).isEqualTo("1.5 KiB");
        assertThat(Amounts.format("cpu", 0.25)).isEqualTo("0.25");
    }
}
