package io.lahar.streams.kafka;

import io.lahar.schema.serde.RegistrySerdes;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;

/**
 * The streams client's {@link Guards} (Quarkus sets them as its state listener), whose serdes wait
 * out a registry outage for {@link Guards#PROCESSING_WAIT} (the REST API's and the ticker's keep
 * {@link RegistrySerdes#WAIT}), and its uncaught-exception handler, which replaces a dead stream
 * thread ({@link StreamThreadFailures}).
 */
@ApplicationScoped
public class GuardsProducer {

    @Produces
    @Singleton
    Guards guards(RegistrySerdes serdes) {
        return new Guards(serdes.withWait(Guards.PROCESSING_WAIT));
    }

    void close(@Disposes Guards guards) {
        guards.close();
    }

    @Produces
    @Singleton
    StreamsUncaughtExceptionHandler threadFailures(Guards guards) {
        return new StreamThreadFailures(guards);
    }
}
