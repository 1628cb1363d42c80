package io.lahar.core.scheduling.plugins;

import static io.lahar.core.scheduling.plugins.NodePorts.NO_FREE_PORTS;
import static io.lahar.core.scheduling.plugins.Pods.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.scheduling.api.NodeInfo;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The NodePorts filter against Kubernetes' {@code TestNodePorts} (pkg/scheduler/framework/plugins/nodeports/node_ports_test.go). */
class NodePortsTest {

    record Case(String name, Pods incoming, Pods existing, String want) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Pods ports(String... ipProtocolPort) {
        Pods p = pod("p");
        for (String s : ipProtocolPort) {
            String[] parts = s.split("/");
            p.hostPort(parts[0], parts[1], Integer.parseInt(parts[2]));
        }
        return p;
    }

    static Pods running(String... ipProtocolPort) {
        Pods p = pod("existing").on("node1");
        for (String s : ipProtocolPort) {
            String[] parts = s.split("/");
            p.hostPort(parts[0], parts[1], Integer.parseInt(parts[2]));
        }
        return p;
    }

    static Stream<Case> table() {
        return Stream.of(
                new Case("nothing running", ports("127.0.0.1/UDP/8080"), null, null),
                new Case("other port", ports("127.0.0.1/UDP/8080"), running("127.0.0.1/UDP/9090"), null),
                new Case("same udp port", ports("127.0.0.1/UDP/8080"), running("127.0.0.1/UDP/8080"), NO_FREE_PORTS),
                new Case("same tcp port", ports("127.0.0.1/TCP/8080"), running("127.0.0.1/TCP/8080"), NO_FREE_PORTS),
                new Case("different host ip", ports("127.0.0.1/TCP/8080"), running("127.0.0.2/TCP/8080"), null),
                new Case("different protocol", ports("127.0.0.1/UDP/8080"), running("127.0.0.1/TCP/8080"), null),
                new Case(
                        "second udp port conflict",
                        ports("127.0.0.1/UDP/8000", "127.0.0.1/UDP/8080"),
                        running("127.0.0.1/UDP/8080"),
                        NO_FREE_PORTS),
                new Case(
                        "first tcp port conflict",
                        ports("127.0.0.1/TCP/8001", "127.0.0.1/UDP/8080"),
                        running("127.0.0.1/TCP/8001", "127.0.0.1/UDP/8081"),
                        NO_FREE_PORTS),
                new Case(
                        "first tcp port conflict due to 0.0.0.0 hostIP",
                        ports("0.0.0.0/TCP/8001"),
                        running("127.0.0.1/TCP/8001"),
                        NO_FREE_PORTS),
                new Case(
                        "TCP hostPort conflict due to 0.0.0.0 hostIP",
                        ports("10.0.10.10/TCP/8001", "0.0.0.0/TCP/8001"),
                        running("127.0.0.1/TCP/8001"),
                        NO_FREE_PORTS),
                new Case(
                        "second tcp port conflict to 0.0.0.0 hostIP",
                        ports("127.0.0.1/TCP/8001"),
                        running("0.0.0.0/TCP/8001"),
                        NO_FREE_PORTS),
                new Case("second different protocol", ports("0.0.0.0/UDP/8001"), running("127.0.0.1/TCP/8001"), null),
                new Case(
                        "UDP hostPort conflict due to 0.0.0.0 hostIP",
                        ports("0.0.0.0/TCP/8001", "0.0.0.0/UDP/8001"),
                        running("127.0.0.1/TCP/8001"),
                        NO_FREE_PORTS));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("table")
    void filtersAsKubernetes(Case c) {
        List<NodeInfo> nodes = List.of(
                NodeInfo.builder("node1").allocatable(Map.of("cpu", "8")).build());
        List<Pods> existing = c.existing() == null ? List.of() : List.of(c.existing());
        assertThat(Pods.filter(nodes, existing, c.incoming()).get("node1")).isEqualTo(c.want());
    }
}
