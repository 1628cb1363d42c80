package io.lahar.testkit;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;

/**
 * Points a {@code @QuarkusTest} at the shared broker and registry:
 * {@code @QuarkusTestResource(value = LaharInfraTestResource.class, restrictToAnnotatedClass = false)}.
 * {@link #stop()} leaves them running, because the next Quarkus application of the same test run
 * (another profile, another resource set) uses them too; they stop with the JVM.
 */
public final class LaharInfraTestResource implements QuarkusTestResourceLifecycleManager {

    @Override
    public Map<String, String> start() {
        LaharInfra infra = LaharInfra.shared();
        LaharInfra.markSharedWithQuarkus();
        return properties(infra);
    }

    /** The configuration a Lahar Quarkus service needs to reach {@code infra}. */
    public static Map<String, String> properties(LaharInfra infra) {
        return Map.of(
                "kafka.bootstrap.servers", infra.bootstrapServers(),
                // Kafka Streams' extension does not read kafka.bootstrap.servers.
                "quarkus.kafka-streams.bootstrap-servers", infra.bootstrapServers(),
                "mp.messaging.connector.smallrye-kafka.apicurio.registry.url", infra.registryUrl(),
                "apicurio.registry.url", infra.registryUrl(),
                "lahar.registry.ccompat-url", infra.ccompatUrl());
    }

    @Override
    public void stop() {
        // Shared across Quarkus applications of this JVM: stopped by LaharInfra's shutdown hook.
    }
}
