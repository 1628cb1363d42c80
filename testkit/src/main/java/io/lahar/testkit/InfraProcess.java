package io.lahar.testkit;

import java.nio.file.Path;
import java.time.Duration;
import java.util.OptionalLong;
import java.util.function.IntFunction;

/**
 * A piece of infrastructure the testkit runs as a child JVM ({@link KafkaBroker}, {@link
 * ApicurioRegistry}): where its data is, how long it took to start, and the process itself.
 */
public abstract sealed class InfraProcess implements AutoCloseable permits KafkaBroker, ApicurioRegistry {

    private final Path dataDir;
    private final ChildProcess process;
    private final Duration startupTime;

    /** How many times a start is tried again on other ports when one was taken meanwhile. */
    private static final int START_ATTEMPTS = 3;

    InfraProcess(Path dataDir, ChildProcess process, Duration startupTime) {
        this.dataDir = dataDir;
        this.process = process;
        this.startupTime = startupTime;
    }

    /** Refuses a port that is neither 0 (a free one) nor a TCP port, before anything is started or written. */
    static void checkPort(String what, int port) {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException(what + " port must be 0 (free) or 1..65535, got " + port);
        }
    }

    /**
     * Launches on {@code port} (0: free ports the launcher picks). A port another process took
     * between being found free and being bound is tried again on other free ones: always when the
     * launcher picked it, and for a given port only when it was only {@code preferred} (bin/start's
     * fixed ports, "random ones only on conflict").
     */
    static <T extends InfraProcess> T launchOnPorts(int port, boolean preferred, IntFunction<T> launch) {
        PortTakenException last = null;
        for (int attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
            try {
                return launch.apply(port);
            } catch (PortTakenException e) {
                last = e;
                if (port != 0 && !preferred) {
                    break;
                }
                port = 0;
            }
        }
        throw last;
    }

    public Path dataDir() {
        return dataDir;
    }

    /** From the call to start until it answered, ready and configured (a broker's first format included). */
    public Duration startupTime() {
        return startupTime;
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    public OptionalLong rssBytes() {
        return process.rssBytes();
    }

    public Path logFile() {
        return process.logFile();
    }

    /** Stops the process (SIGTERM, then SIGKILL after a grace period); its data stays. */
    @Override
    public void close() {
        process.close();
    }
}
