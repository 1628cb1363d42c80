package io.lahar.core.scheduling.api;

/**
 * A container port published on the node ({@code hostPort}), as the NodePorts filter compares
 * them: the same protocol and port conflict when either host IP is {@code 0.0.0.0} or both are equal.
 */
public record HostPort(String hostIP, String protocol, int port) {
    public static final String ANY_IP = "0.0.0.0";

    public HostPort {
        hostIP = hostIP == null || hostIP.isEmpty() ? ANY_IP : hostIP;
        protocol = protocol == null || protocol.isEmpty() ? "TCP" : protocol;
    }

    public boolean conflicts(HostPort other) {
        return port == other.port
                && protocol.equals(other.protocol)
                && (hostIP.equals(ANY_IP) || other.hostIP.equals(ANY_IP) || hostIP.equals(other.hostIP));
    }
}
