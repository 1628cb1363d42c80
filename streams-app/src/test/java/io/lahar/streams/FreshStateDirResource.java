package io.lahar.streams;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Gives each test run of the application its own Kafka Streams state directory: local state
 * from another run (another broker) would carry changelog checkpoints that mean nothing here.
 */
public final class FreshStateDirResource implements QuarkusTestResourceLifecycleManager {

    private Path dir;

    @Override
    public Map<String, String> start() {
        try {
            dir = Files.createTempDirectory("lahar-streams-test");
            return Map.of("kafka-streams.state.dir", dir.toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Removes the directory once the application stopped, so test runs do not pile state up in the temp dir. */
    @Override
    public void stop() {
        if (dir == null) return;
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
