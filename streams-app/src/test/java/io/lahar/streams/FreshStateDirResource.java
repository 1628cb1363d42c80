package io.lahar.streams;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.Map;

/**
 * Gives each test run of the application its own Kafka Streams state directory: local state
 * from another run (another broker) would carry changelog checkpoints that mean nothing here.
 */
public final class FreshStateDirResource implements QuarkusTestResourceLifecycleManager {

    @Override
    public Map<String, String> start() {
        try {
            return Map.of(
                    "kafka-streams.state.dir",
                    Files.createTempDirectory("lahar-streams-test").toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void stop() {}
}
