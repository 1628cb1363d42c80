package io.lahar.testkit;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Ports for children to listen on, taken below the kernel's ephemeral range. A port the kernel
 * handed out for {@code bind(0)} lies in that range, where every outgoing connection of the run
 * (hundreds of Kafka and HTTP clients) also takes its local port: between the check and the
 * child's bind one of them could take it, and the child failed to start. Below the range only
 * another listener can, and each port is handed out once per JVM.
 */
public final class FreePorts {

    /** Lowest port handed out: clear of the well-known and the usual development ports. */
    static final int LOWEST = 20_000;

    private static final Path EPHEMERAL_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
    private static final Set<Integer> HANDED_OUT = new HashSet<>();

    private FreePorts() {}

    /** A port free on 127.0.0.1 now, outside the ephemeral range, not handed out before by this JVM. */
    public static synchronized int next() {
        int[] range = candidates(ephemeralRange());
        int size = range[1] - range[0] + 1;
        int start = ThreadLocalRandom.current().nextInt(size);
        for (int i = 0; i < size; i++) {
            int port = range[0] + (start + i) % size;
            if (!HANDED_OUT.contains(port) && bindable(port)) {
                HANDED_OUT.add(port);
                return port;
            }
        }
        throw new InfraException("no free port on 127.0.0.1 in " + range[0] + "-" + range[1]);
    }

    /** {@code count} distinct ports, each as {@link #next()} gives it. */
    public static int[] distinct(int count) {
        int[] ports = new int[count];
        for (int i = 0; i < count; i++) {
            ports[i] = next();
        }
        return ports;
    }

    /** The ports to choose from: below the ephemeral range when there is room there, else above it. */
    static int[] candidates(int[] ephemeral) {
        if (ephemeral[0] - LOWEST >= 1_000) {
            return new int[] {LOWEST, ephemeral[0] - 1};
        }
        if (65_535 - ephemeral[1] >= 1_000) {
            return new int[] {ephemeral[1] + 1, 65_535};
        }
        throw new InfraException("the ephemeral port range " + ephemeral[0] + "-" + ephemeral[1]
                + " leaves no room for listeners; narrow net.ipv4.ip_local_port_range");
    }

    /** The kernel's ephemeral range; Linux's default when it cannot be read (another OS). */
    static int[] ephemeralRange() {
        try {
            String[] bounds = Files.readString(EPHEMERAL_RANGE, StandardCharsets.US_ASCII)
                    .strip()
                    .split("\\s+");
            return new int[] {Integer.parseInt(bounds[0]), Integer.parseInt(bounds[1])};
        } catch (IOException | RuntimeException e) {
            return new int[] {32_768, 60_999};
        }
    }

    private static boolean bindable(int port) {
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
