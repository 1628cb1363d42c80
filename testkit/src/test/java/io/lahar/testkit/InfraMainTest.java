package io.lahar.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class InfraMainTest {

    @Test
    void parsesEveryOption() {
        InfraMain.Options options = InfraMain.parse(new String[] {
            "start",
            "--dir",
            "/tmp/x",
            "--kafka-port",
            "9092",
            "--registry-port",
            "8081",
            "--persistent",
            "--secure-registry",
            "--prefer-ports"
        });
        assertThat(options).isEqualTo(new InfraMain.Options(Path.of("/tmp/x"), 9092, 8081, true, true, true));
    }

    @Test
    void portsDefaultToFreeOnesAndStorageToFresh() {
        assertThat(InfraMain.parse(new String[] {"start", "--dir", "d"}))
                .isEqualTo(new InfraMain.Options(Path.of("d"), 0, 0, false, false, false));
    }

    @Test
    void rejectsWhatItCannotRun() {
        assertThatThrownBy(() -> InfraMain.parse(new String[] {})).hasMessageContaining("'start'");
        assertThatThrownBy(() -> InfraMain.parse(new String[] {"stop"})).hasMessageContaining("'start'");
        assertThatThrownBy(() -> InfraMain.parse(new String[] {"start"})).hasMessageContaining("--dir is required");
        assertThatThrownBy(() -> InfraMain.parse(new String[] {"start", "--dir"}))
                .hasMessageContaining("--dir needs a value");
        assertThatThrownBy(() -> InfraMain.parse(new String[] {"start", "--dir", "d", "--kafka-port", "x"}))
                .hasMessageContaining("--kafka-port must be a number, got x");
        assertThatThrownBy(() -> InfraMain.parse(new String[] {"start", "--dir", "d", "--registry-port", "70000"}))
                .hasMessageContaining("--registry-port must be 0..65535, got 70000");
        assertThatThrownBy(() -> InfraMain.parse(new String[] {"start", "--dir", "d", "--verbose"}))
                .hasMessageContaining("unknown option --verbose");
    }

    @Test
    void theEnvironmentNamesEveryAddress() {
        LaharInfra infra = LaharInfra.external("127.0.0.1:9092", "http://127.0.0.1:8081");
        assertThat(InfraMain.environment(infra))
                .containsExactly(
                        "KAFKA_BOOTSTRAP=127.0.0.1:9092",
                        "REGISTRY_URL=http://127.0.0.1:8081/apis/registry/v3",
                        "CCOMPAT_URL=http://127.0.0.1:8081/apis/ccompat/v7",
                        "INFRA_PID=" + ProcessHandle.current().pid());
    }
}
