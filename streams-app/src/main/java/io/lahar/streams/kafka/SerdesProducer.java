package io.lahar.streams.kafka;

import io.lahar.schema.serde.RegistrySerdes;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** The registry-backed serdes of the topic contract, configured from {@code lahar.schema-registry.url}. */
@ApplicationScoped
public class SerdesProducer {

    // Singleton, not normal-scoped: RegistrySerdes is final and needs no client proxy.
    @Produces
    @Singleton
    RegistrySerdes serdes(@ConfigProperty(name = "lahar.schema-registry.url") String registryUrl) {
        return new RegistrySerdes(registryUrl);
    }
}
