package io.lahar.streams.kafka;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.streams.KafkaStreams;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;
import org.jboss.logging.Logger;

/**
 * {@code /q/health/live}: not live once a stream thread has been held without polling for
 * {@code lahar.streams.stall-limit} ({@link StreamThreadWatch}); a look at the threads every
 * {@link #PERIOD} logs a held one with its stack, long before that.
 */
@Liveness
@ApplicationScoped
public class StreamThreadLiveness implements HealthCheck {

    private static final Logger LOG = Logger.getLogger(StreamThreadLiveness.class);
    static final String NAME = "Kafka Streams threads polling";
    static final Duration PERIOD = Duration.ofSeconds(10);

    @Inject
    KafkaStreams streams;

    @ConfigProperty(name = "lahar.streams.stall-warning", defaultValue = "60S")
    Duration warnAfter;

    @ConfigProperty(name = "lahar.streams.stall-limit", defaultValue = "5M")
    Duration limit;

    private StreamThreadWatch watch;
    private ScheduledExecutorService executor;

    void start(@Observes StartupEvent event) {
        watch = new StreamThreadWatch(streams::metrics, StreamThreadWatch::stackOf, warnAfter, limit);
        executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "lahar-stream-thread-watch");
            t.setDaemon(true);
            return t;
        });
        executor.scheduleWithFixedDelay(this::look, PERIOD.toMillis(), PERIOD.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void look() {
        try {
            for (StreamThreadWatch.Notice notice : watch.check()) {
                switch (notice.level()) {
                    case INFO -> LOG.info(notice.message());
                    case WARN -> LOG.warn(notice.message());
                    case ERROR -> LOG.error(notice.message());
                }
            }
        } catch (RuntimeException e) {
            // The watch must outlive a bad look (metrics of a client closing, say): the next one is in 10 s.
            LOG.warnf("could not look at the stream threads: %s", e.toString());
        }
    }

    void stop(@Observes ShutdownEvent event) {
        if (executor != null) {
            executor.shutdownNow();
        }
    }

    @Override
    public HealthCheckResponse call() {
        boolean live = watch == null || watch.live();
        return HealthCheckResponse.named(NAME)
                .status(live)
                .withData("stall-limit", limit.toString())
                .build();
    }
}
