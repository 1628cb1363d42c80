package io.lahar.emulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class EmbeddedClusterMainTest {

    @Test
    void parsesTheDemoCommandLine() {
        var parsed = EmbeddedClusterMain.parse(new String[] {
            "--port",
            "6443",
            "--nodes",
            "4x{cpu=8,memory=32Gi,gpu=0}",
            "--kubeconfig=/tmp/k.yaml",
            "--time-scale",
            "0.5",
            "--data",
            "/tmp/emulator"
        });

        assertThat(parsed.help()).isFalse();
        assertThat(parsed.options().port()).isEqualTo(6443);
        assertThat(parsed.options().nodes())
                .singleElement()
                .satisfies(n -> assertThat(n.count()).isEqualTo(4));
        assertThat(parsed.options().kubeconfig()).contains(Path.of("/tmp/k.yaml"));
        assertThat(parsed.options().timeScale()).isEqualTo(0.5);
        assertThat(parsed.options().dataDir()).contains(Path.of("/tmp/emulator"));
    }

    @Test
    void defaultsToAFreePortAndAKubeconfigInTheWorkingDirectory() {
        var parsed = EmbeddedClusterMain.parse(new String[0]);

        assertThat(parsed.options().port()).isZero();
        assertThat(parsed.options().kubeconfig()).contains(Path.of("kubeconfig.embedded.yaml"));
        assertThat(parsed.options().nodes()).isEqualTo(NodeSpec.defaults(3));
        assertThat(parsed.options().dataDir()).as("in memory only").isEmpty();
    }

    @Test
    void reportsEveryBadArgument() {
        assertThatThrownBy(() -> EmbeddedClusterMain.parse(new String[] {
                    "--port", "70000", "--nodes", "2x{cpu=lots}", "--time-scale", "-1", "--colour", "--kubeconfig"
                }))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--port: \"70000\" is not a port (0..65535); "
                        + "--nodes: nodes[0].cpu: \"lots\" is not a Kubernetes quantity (e.g. 8, 500m, 32Gi); "
                        + "--time-scale: \"-1\" is not a finite number >= 0; "
                        + "--colour: unknown option; "
                        + "--kubeconfig: missing value");
    }
}
