package io.lahar.streams.clock;

import io.lahar.schema.KafkaClients;
import io.lahar.schema.Tick;
import io.lahar.schema.Topics;
import io.lahar.schema.Topics.TopicSpec;
import io.lahar.schema.serde.RegistrySerdes;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Makes time an event: every {@code lahar.clock.interval} (1s by default) writes one {@link Tick}
 * with the wall-clock time into each partition of {@code lahar.clock} (the jobs' timers), of
 * {@code lahar.flow-clock} (the JobFlows') and of {@code lahar.cron-clock} (the CronJobs'), explicitly to that
 * partition (the default partitioner would hash the key elsewhere). Timers fire on these ticks,
 * so policy timeouts and TTLs fire on a quiet partition, and a replay of the log fires them at
 * the same points. The wall clock is read here, at the edge, and nowhere in the engine.
 */
@ApplicationScoped
public class Ticker {

    private static final Logger LOG = Logger.getLogger(Ticker.class);

    @Inject
    RegistrySerdes serdes;

    @Inject
    KafkaClients kafka;

    @ConfigProperty(name = "lahar.clock.enabled", defaultValue = "true")
    boolean enabled;

    @ConfigProperty(name = "lahar.clock.interval", defaultValue = "1S")
    Duration interval;

    /** The topics ticked, each into every partition: the job lifecycle's, the JobFlow engine's, the CronJob engine's. */
    private static final List<TopicSpec> CLOCKS = List.of(Topics.CLOCK, Topics.FLOW_CLOCK, Topics.CRON_CLOCK);

    private ScheduledExecutorService executor;
    private KafkaProducer<String, Tick> producer;

    void start(@Observes StartupEvent event) {
        if (!enabled) {
            return;
        }
        producer = kafka.producer(
                Map.of(ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.LINGER_MS_CONFIG, 0),
                new StringSerializer(),
                serdes.value(Tick.class).serializer());
        executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "lahar-ticker");
            t.setDaemon(true);
            return t;
        });
        executor.scheduleAtFixedRate(this::tick, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
        LOG.infof(
                "ticking every %s into %s",
                interval, CLOCKS.stream().map(TopicSpec::name).toList());
    }

    void tick() {
        try {
            Tick tick = new Tick(Instant.now());
            for (TopicSpec clock : CLOCKS) {
                for (int p = 0; p < clock.partitions(); p++) {
                    producer.send(new ProducerRecord<>(clock.name(), p, Topics.clockKey(p), tick));
                }
            }
        } catch (RuntimeException e) {
            // A missed tick only delays timers until the next one; the ticker must keep going.
            LOG.warnf("tick not sent: %s", e.toString());
        }
    }

    void stop(@Observes ShutdownEvent event) {
        if (executor != null) {
            executor.shutdownNow();
        }
        if (producer != null) {
            KafkaClients.close(producer);
        }
    }
}
