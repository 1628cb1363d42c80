package io.lahar.core.scheduling.plugins;

import io.lahar.core.scheduling.api.HostPort;
import io.lahar.core.scheduling.framework.PodTopology;
import io.lahar.core.scheduling.framework.SessionNode;
import java.util.List;

/**
 * Kubernetes' NodePorts filter: a node fails when one of the pod's host ports is in use there (same
 * protocol and port, and the same host IP or either of them {@code 0.0.0.0}).
 */
final class NodePorts {
    static final String NO_FREE_PORTS = "node(s) didn't have free ports for the requested pod ports";

    private NodePorts() {}

    static String check(List<HostPort> wanted, PodTopology topo, SessionNode node) {
        List<HostPort> used = topo.ports(node.index());
        for (HostPort w : wanted) {
            for (HostPort u : used) {
                if (w.conflicts(u)) return NO_FREE_PORTS;
            }
        }
        return null;
    }
}
