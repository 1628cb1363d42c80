package io.lahar.streams.kafka;

import io.lahar.schema.serde.RegistrySerdes;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The registry-backed serdes of the topic contract, configured from {@code lahar.schema-registry.url}
 * and the registry's credentials, when it wants them ({@link RegistrySerdes.Credentials#configured}).
 */
@ApplicationScoped
public class SerdesProducer {

    // Singleton, not normal-scoped: RegistrySerdes is final and needs no client proxy.
    @Produces
    @Singleton
    RegistrySerdes serdes(@ConfigProperty(name = "lahar.schema-registry.url") String registryUrl, Config config) {
        return new RegistrySerdes(
                registryUrl, RegistrySerdes.Credentials.configured(key -> config.getOptionalValue(key, String.class)));
    }
}
