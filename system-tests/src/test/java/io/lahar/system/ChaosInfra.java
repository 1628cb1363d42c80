package io.lahar.system;

import io.lahar.testkit.ApicurioRegistry;
import io.lahar.testkit.KafkaBroker;
import io.lahar.testkit.LaharInfra;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;

/**
 * A Kafka broker and an Apicurio Registry of the chaos suite's own, which it stops and starts again:
 * never the shared pair the other system tests use, whatever order failsafe runs them in. Both keep
 * their data in {@code dir} across restarts and come back on the same ports, so the services, which
 * were given these addresses once, reconnect; the registry keeps its schemas in a file, so every
 * schema id a record on the broker names stays valid.
 */
final class ChaosInfra implements AutoCloseable {

    private final Path dir;
    private volatile KafkaBroker broker;
    private volatile ApicurioRegistry registry;
    private final LaharInfra infra;

    private ChaosInfra(Path dir, KafkaBroker broker, ApicurioRegistry registry) {
        this.dir = dir;
        this.broker = broker;
        this.registry = registry;
        this.infra = LaharInfra.external(broker.bootstrapServers(), registry.url());
    }

    /** Starts both, in parallel, on free ports. */
    static ChaosInfra start(Path dir) {
        CompletableFuture<KafkaBroker> broker =
                CompletableFuture.supplyAsync(() -> KafkaBroker.start(dir), ChaosInfra::onNewThread);
        CompletableFuture<ApicurioRegistry> registry =
                CompletableFuture.supplyAsync(() -> ApicurioRegistry.start(dir, true), ChaosInfra::onNewThread);
        try {
            return new ChaosInfra(dir, broker.join(), registry.join());
        } catch (RuntimeException e) {
            broker.thenAccept(KafkaBroker::close);
            registry.thenAccept(ApicurioRegistry::close);
            throw e;
        }
    }

    // Not the common pool: on two cores it runs one task at a time.
    private static void onNewThread(Runnable task) {
        Thread thread = new Thread(task, "chaos-infra-start");
        thread.setDaemon(true);
        thread.start();
    }

    /** Their addresses, as the services and the test's clients are given them. */
    LaharInfra infra() {
        return infra;
    }

    /** Stops the broker (SIGTERM: a controlled shutdown) and starts it again on its port and data. */
    void restartBroker() {
        broker.close();
        broker = KafkaBroker.start(dir, broker.port());
    }

    /** Stops the registry; its schemas stay in its file. */
    void stopRegistry() {
        registry.close();
    }

    /** Starts the stopped registry again on its port and its file; returns once it answers. */
    void startRegistry() {
        registry = ApicurioRegistry.start(dir, true, registry.port());
    }

    @Override
    public void close() {
        try {
            registry.close();
        } finally {
            broker.close();
        }
    }
}
