package io.lahar.streams.kafka;

import io.lahar.schema.KafkaClients;
import io.smallrye.common.annotation.Identifier;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.util.Map;

/**
 * The streams-app's Kafka clients (command gateway, transition reader, ticker, topic bootstrap)
 * connect with the {@code kafka.} settings Quarkus hands Kafka Streams as well: one prefix for
 * {@code security.protocol}, {@code sasl.*} and {@code ssl.*}.
 */
@ApplicationScoped
public class KafkaClientsProducer {

    @Produces
    @Singleton
    KafkaClients clients(@Identifier("default-kafka-broker") Map<String, Object> kafka) {
        return KafkaClients.of(kafka);
    }
}
