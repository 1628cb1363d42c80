package io.lahar.console;

import io.lahar.console.api.RecordLookup;
import io.lahar.console.api.StreamsApi;
import io.lahar.console.feed.TopicFeed;
import io.lahar.console.metrics.ConsoleMetrics;
import io.lahar.console.metrics.ConsumerLag;
import io.lahar.console.sse.EventStream;
import io.lahar.console.view.ConsoleViews;
import io.lahar.schema.KafkaClients;
import io.lahar.schema.serde.RegistrySerdes;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.common.annotation.Identifier;
import io.vertx.ext.web.Router;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * The console for the life of the application: its views, the feed that fills them from the public
 * topics, the change stream to browsers ({@code /api/events}), the streams-app client for actions
 * and the metrics. The pages are static files ({@code META-INF/resources}) over {@code /api}.
 */
@ApplicationScoped
public class ConsoleService {

    private static final Logger LOG = Logger.getLogger(ConsoleService.class);

    /** The kafka. settings (Quarkus' default-kafka-broker map): every client's connection. */
    @Inject
    @Identifier("default-kafka-broker")
    Map<String, Object> kafkaConfig;

    @Inject
    Config config;

    @ConfigProperty(name = "lahar.schema-registry.url")
    String registryUrl;

    @ConfigProperty(name = "lahar.console.api-url", defaultValue = "http://127.0.0.1:8081")
    URI apiUrl;

    @ConfigProperty(name = "lahar.console.api-token")
    Optional<String> apiToken;

    @ConfigProperty(name = "lahar.console.api-token-file")
    Optional<Path> apiTokenFile;

    @ConfigProperty(name = "lahar.console.api-timeout", defaultValue = "35s")
    Duration apiTimeout;

    @ConfigProperty(name = "lahar.console.events.interval", defaultValue = "250ms")
    Duration eventsInterval;

    @ConfigProperty(name = "lahar.console.events.heartbeat", defaultValue = "15s")
    Duration heartbeat;

    @ConfigProperty(name = "lahar.console.events.client-buffer", defaultValue = "64")
    int clientBuffer;

    @ConfigProperty(name = "lahar.console.events.write-queue-bytes", defaultValue = "65536")
    int writeQueueBytes;

    @ConfigProperty(name = "lahar.console.transitions-per-job", defaultValue = "200")
    int transitionsPerJob;

    @ConfigProperty(name = "lahar.console.pods-per-job", defaultValue = "10000")
    int podsPerJob;

    @ConfigProperty(name = "lahar.console.jobs-with-history", defaultValue = "50000")
    int jobsWithHistory;

    @ConfigProperty(name = "lahar.console.dead-letters", defaultValue = "500")
    int deadLetters;

    @ConfigProperty(name = "lahar.console.lag.groups", defaultValue = "lahar.*")
    Pattern lagGroups;

    @ConfigProperty(name = "lahar.console.metrics.interval", defaultValue = "5s")
    Duration metricsInterval;

    @Inject
    MeterRegistry registry;

    private ConsoleViews views;
    private ConsoleMetrics metrics;
    private TopicFeed feed;
    private EventStream events;
    private StreamsApi actions;
    private ConsumerLag lag;
    private RecordLookup records;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "console-metrics");
        t.setDaemon(true);
        return t;
    });

    @PostConstruct
    void create() {
        metrics = new ConsoleMetrics(registry);
        views = new ConsoleViews(
                new ConsoleViews.Limits(
                        transitionsPerJob,
                        podsPerJob,
                        jobsWithHistory,
                        deadLetters,
                        ConsoleViews.Limits.DEFAULT.changedKeys()),
                metrics);
        metrics.watch(views);
        events = new EventStream(views, clientBuffer, writeQueueBytes, registry);
        actions = new StreamsApi(apiUrl, apiToken, apiTokenFile, apiTimeout);
    }

    void routes(@Observes Router router) {
        router.get("/api/events").handler(rc -> events.subscribe(rc));
    }

    void start(@Observes StartupEvent event) {
        RegistrySerdes serdes = new RegistrySerdes(
                registryUrl, RegistrySerdes.Credentials.configured(key -> config.getOptionalValue(key, String.class)));
        KafkaClients kafka = KafkaClients.of(kafkaConfig);
        feed = new TopicFeed(kafka, serdes, views);
        records = new RecordLookup(kafka, serdes);
        feed.start();
        events.start(eventsInterval.toMillis(), heartbeat.toMillis());
        lag = new ConsumerLag(kafka, lagGroups, registry);
        long every = metricsInterval.toMillis();
        timer.scheduleWithFixedDelay(
                () -> {
                    try {
                        metrics.refresh();
                        lag.refresh();
                    } catch (RuntimeException e) {
                        LOG.warn("could not refresh the console's metrics", e);
                    }
                },
                every,
                every,
                TimeUnit.MILLISECONDS);
        LOG.infof(
                "console reading the public topics of %s; actions %s",
                kafka, actions.readOnly() ? "disabled (read-only: no API token)" : "through " + apiUrl);
    }

    void stop(@Observes ShutdownEvent event) {
        timer.shutdownNow();
        events.close();
        if (feed != null) {
            feed.close();
        }
        if (lag != null) {
            lag.close();
        }
        if (records != null) {
            records.close();
        }
    }

    public ConsoleViews views() {
        return views;
    }

    public StreamsApi actions() {
        return actions;
    }

    public RecordLookup records() {
        return records;
    }

    public boolean caughtUp() {
        return feed != null && feed.caughtUp();
    }
}
