package io.lahar.streams.kafka;

import io.lahar.schema.PollWatch;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Duration;
import org.apache.kafka.streams.KafkaStreams;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;

/**
 * {@code /q/health/live}: not live once a stream thread has been held without polling for
 * {@code lahar.streams.stall-limit} ({@link PollWatch}, on each stream thread's main consumer); a
 * look every {@link PollWatch#PERIOD} logs a held one with its stack long before that.
 */
@Liveness
@ApplicationScoped
public class StreamThreadLiveness implements HealthCheck {

    static final String NAME = "Kafka Streams threads polling";

    /** A stream thread's main consumer is {@code <thread name>-consumer}; its restore consumer {@code -restore-consumer}. */
    private static final String MAIN_CONSUMER = "-consumer";

    @Inject
    KafkaStreams streams;

    @ConfigProperty(name = "lahar.streams.stall-warning", defaultValue = "60S")
    Duration warnAfter;

    @ConfigProperty(name = "lahar.streams.stall-limit", defaultValue = "5M")
    Duration limit;

    private PollWatch watch;
    private PollWatch.Watching watching;

    /** The stream thread that polls the consumer of {@code client}, or null for another of the client's consumers. */
    public static String streamThreadOf(String client) {
        if (!client.endsWith(MAIN_CONSUMER)
                || client.endsWith("-restore-consumer")
                || !client.contains("-StreamThread-")) {
            return null;
        }
        return client.substring(0, client.length() - MAIN_CONSUMER.length());
    }

    /** The watch of {@code streams}' stream threads. */
    public static PollWatch watch(KafkaStreams streams, Duration warnAfter, Duration limit) {
        return new PollWatch(
                streams::metrics, StreamThreadLiveness::streamThreadOf, PollWatch::stackOf, warnAfter, limit);
    }

    void start(@Observes StartupEvent event) {
        watch = watch(streams, warnAfter, limit);
        watching = watch.watch("lahar-stream-thread-watch");
    }

    void stop(@Observes ShutdownEvent event) {
        if (watching != null) {
            watching.close();
        }
    }

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.named(NAME)
                .status(watch == null || watch.live())
                .withData("stall-limit", limit.toString())
                .build();
    }
}
