package io.lahar.scheduler.service;

import io.lahar.core.scheduling.framework.InvalidConfException;
import io.lahar.core.scheduling.framework.SchedulerConf;
import io.lahar.scheduler.cache.NodeSelector;
import io.lahar.scheduler.loop.LeaderElection;
import io.lahar.scheduler.loop.LoopSettings;
import io.lahar.scheduler.loop.LoopState;
import io.lahar.scheduler.loop.LoopSupervisor;
import io.lahar.scheduler.loop.SchedulerMetrics;
import io.lahar.scheduler.loop.SchedulingLoop;
import io.lahar.schema.KafkaClients;
import io.lahar.schema.PollWatch;
import io.lahar.schema.TopicBootstrap;
import io.lahar.schema.serde.RegistrySerdes;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.common.annotation.Identifier;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Runs the {@link SchedulingLoop} on its own thread for the life of the application. Quarkus
 * supplies configuration, the Micrometer registry (served at {@code /q/metrics}) and health
 * ({@code /q/health}, see {@link SchedulerHealth}). With leader election on (the default), the loop
 * runs only while this instance is the leader, so a standby instance takes over when the active
 * one dies. A {@link LoopSupervisor} replaces a loop that failed (a broker outage outlasted its
 * clients' timeouts) with a new one for as long as this instance should run it.
 */
@ApplicationScoped
public class SchedulerService {

    private static final Logger LOG = Logger.getLogger(SchedulerService.class);

    /** The kafka. settings (Quarkus' default-kafka-broker map): every client's connection. */
    @Inject
    @Identifier("default-kafka-broker")
    Map<String, Object> kafkaConfig;

    @Inject
    Config config;

    @ConfigProperty(name = "lahar.schema-registry.url")
    String registryUrl;

    @ConfigProperty(name = "lahar.topics.create", defaultValue = "true")
    boolean createTopics;

    @ConfigProperty(name = "lahar.scheduler.enabled", defaultValue = "true")
    boolean enabled;

    @ConfigProperty(name = "lahar.scheduler.transactional-id", defaultValue = "lahar-scheduler")
    String transactionalId;

    @ConfigProperty(name = "lahar.scheduler.group-id", defaultValue = "lahar-scheduler")
    String groupId;

    @ConfigProperty(name = "lahar.scheduler.period", defaultValue = "1s")
    Duration period;

    @ConfigProperty(name = "lahar.scheduler.conf-file")
    Optional<String> confFile;

    @ConfigProperty(name = "lahar.scheduler.max-unconfirmed-bindings", defaultValue = "1000")
    int maxUnconfirmedBindings;

    @ConfigProperty(name = "lahar.scheduler.scheduler-names", defaultValue = "volcano")
    List<String> schedulerNames;

    /** Volcano's --node-selector: comma-separated key:value labels a node must all carry; empty = all nodes. */
    @ConfigProperty(name = "lahar.scheduler.node-selector")
    Optional<String> nodeSelector;

    @ConfigProperty(name = "lahar.scheduler.transaction-timeout", defaultValue = "30s")
    Duration transactionTimeout;

    @ConfigProperty(name = "lahar.scheduler.leader-election", defaultValue = "true")
    boolean leaderElection;

    @ConfigProperty(name = "lahar.scheduler.instance-id")
    Optional<String> instanceId;

    @ConfigProperty(name = "lahar.scheduler.leader-session-timeout", defaultValue = "45s")
    Duration leaderSessionTimeout;

    private final MeterRegistry meterRegistry;
    /** The thread the loops run on. */
    static final String LOOP = "lahar-scheduler";

    private LoopSettings settings;
    private SchedulerMetrics metrics;
    private LeaderElection election;
    private Thread electionThread;
    private volatile LoopSupervisor<SchedulingLoop> supervisor;
    private Thread thread;
    /** Whether the loop still polls: one held in a call that never returns is alive but schedules nothing. */
    private PollWatch polls;

    private PollWatch.Watching watching;

    SchedulerService(MeterRegistry meterRegistry) {
        this.meterRegistry = meterRegistry;
    }

    void start(@Observes StartupEvent event) {
        if (!enabled) {
            LOG.info("scheduler disabled (lahar.scheduler.enabled=false)");
            return;
        }
        SchedulerConf conf = conf();
        KafkaClients kafka = KafkaClients.of(kafkaConfig);
        if (createTopics) TopicBootstrap.ensureTopics(kafka);
        settings = new LoopSettings(
                kafka,
                registryUrl,
                RegistrySerdes.Credentials.configured(key -> config.getOptionalValue(key, String.class)),
                transactionalId,
                groupId,
                period,
                conf,
                maxUnconfirmedBindings,
                new HashSet<>(schedulerNames),
                transactionTimeout,
                NodeSelector.parse(nodeSelector.orElse("")));
        LOG.info("scheduler uses " + settings.nodeSelector());
        metrics = new SchedulerMetrics(meterRegistry);
        polls = SchedulingLoop.pollWatch(this::loop, LOOP);
        watching = polls.watch("lahar-scheduler-watch");
        if (!leaderElection) {
            startLoop();
            return;
        }
        if (leaderSessionTimeout.compareTo(transactionTimeout) < 0) {
            throw new IllegalStateException("lahar.scheduler.leader-session-timeout (" + leaderSessionTimeout
                    + ") must not be shorter than lahar.scheduler.transaction-timeout (" + transactionTimeout + ")");
        }
        election = new LeaderElection(
                LeaderElection.through(kafka),
                groupId + "-leader",
                instanceId.filter(s -> !s.isBlank()),
                leaderSessionTimeout,
                this::startLoop,
                this::stopLoop);
        electionThread =
                Thread.ofPlatform().name("lahar-scheduler-election").daemon().start(election);
    }

    void stop(@Observes ShutdownEvent event) throws InterruptedException {
        if (election != null) {
            election.stop();
            electionThread.join(Duration.ofSeconds(30));
        }
        stopLoop();
        if (watching != null) {
            watching.close();
        }
    }

    private synchronized void startLoop() {
        if (supervisor != null && thread.isAlive()) return;
        supervisor = new LoopSupervisor<>(
                () -> new SchedulingLoop(settings, metrics, Clock.systemUTC()), metrics::restarted);
        thread = Thread.ofPlatform().name(LOOP).daemon().start(supervisor);
    }

    /** Stops the loop, and any restart of it, and waits until it no longer writes. */
    private synchronized void stopLoop() {
        LoopSupervisor<SchedulingLoop> s = supervisor;
        if (s == null) return;
        s.stop();
        try {
            thread.join(Duration.ofSeconds(30));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** True when this instance holds the leadership (or runs without election). */
    public boolean leader() {
        return election == null ? supervisor != null : election.isLeader();
    }

    /** The loop's consumer has polled within {@link PollWatch#LIMIT} (true while it has none). */
    public boolean polling() {
        return polls == null || polls.live();
    }

    /** The loop's state, NEW when the scheduler is disabled or not started. */
    public LoopState state() {
        LoopSupervisor<SchedulingLoop> s = supervisor;
        return s == null ? LoopState.NEW : s.state();
    }

    public boolean enabled() {
        return enabled;
    }

    public long epoch() {
        return loop().map(SchedulingLoop::epoch).orElse(0L);
    }

    /** How many failed loops were replaced by new ones since start. */
    public long restarts() {
        LoopSupervisor<SchedulingLoop> s = supervisor;
        return s == null ? 0 : s.restarts();
    }

    /** Why the loop's input is held (the schema registry does not answer), or empty. */
    public Optional<String> holding() {
        return loop().flatMap(SchedulingLoop::holding);
    }

    private Optional<SchedulingLoop> loop() {
        LoopSupervisor<SchedulingLoop> s = supervisor;
        return s == null ? Optional.empty() : s.current();
    }

    /** Volcano's default configuration, or the file's; a bad file stops start-up with every problem. */
    private SchedulerConf conf() {
        if (confFile.isEmpty() || confFile.get().isBlank()) return SchedulerConf.defaults();
        Path path = Path.of(confFile.get());
        try {
            return SchedulerConf.parse(Files.readString(path));
        } catch (IOException e) {
            throw new IllegalStateException(
                    "lahar.scheduler.conf-file: cannot read " + path + ": " + e.getMessage(), e);
        } catch (InvalidConfException e) {
            throw new IllegalStateException("lahar.scheduler.conf-file " + path + ": " + e.getMessage(), e);
        }
    }
}
