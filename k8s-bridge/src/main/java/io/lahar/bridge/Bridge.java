package io.lahar.bridge;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.lahar.bridge.kafka.BridgeConsumer;
import io.lahar.bridge.kafka.KafkaRecordSink;
import io.lahar.bridge.mapping.SshKeyPair;
import io.lahar.bridge.reconcile.CommandResultReporter;
import io.lahar.bridge.reconcile.CreatedPods;
import io.lahar.bridge.reconcile.CronJobStatusWriter;
import io.lahar.bridge.reconcile.DecisionReconciler;
import io.lahar.bridge.reconcile.EngineDeletions;
import io.lahar.bridge.reconcile.FlowStatusWriter;
import io.lahar.bridge.reconcile.JobStatusWriter;
import io.lahar.bridge.reconcile.MirrorLedger;
import io.lahar.bridge.reconcile.NodeWatcher;
import io.lahar.bridge.reconcile.PodGroupReconciler;
import io.lahar.bridge.reconcile.PodIntentReconciler;
import io.lahar.bridge.reconcile.PodWatcher;
import io.lahar.bridge.reconcile.PriorityClassWatcher;
import io.lahar.bridge.reconcile.QueueStatusWriter;
import io.lahar.bridge.reconcile.Retry;
import io.lahar.bridge.reconcile.VolcanoApiWatcher;
import io.lahar.bridge.reconcile.WorkloadWatcher;
import io.lahar.schema.KafkaClients;
import io.lahar.schema.PollWatch;
import io.lahar.schema.serde.RegistrySerdes;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import org.jboss.logging.Logger;

/**
 * The k8s-bridge, assembled: the input loop (intents, decisions, pod groups, job status → the
 * cluster) and the watchers (pods, nodes, Volcano's API → topics). Plain Java, so tests run it
 * without Quarkus; {@link BridgeService} starts it in the service.
 */
public final class Bridge implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(Bridge.class);
    /** The watchers' informers replay everything this often, re-sending what Kafka refused before. */
    static final long RESYNC_MILLIS = 60_000;

    /**
     * @param registryCredentials the registry's credentials, or null for an open registry
     * @param groupId         the consumer group; one per bridge deployment
     * @param watchVolcanoApi turn Job, Command (and, cluster-wide, Queue) CRs into Lahar input
     * @param namespace       the one namespace this bridge serves (records of others are skipped,
     *                        only its objects watched), or empty for the whole cluster
     * @param publishNodes    publish the node inventory (one bridge per cluster should)
     * @param schedulerNames  the scheduler's names: with the Volcano API watched, other workloads'
     *                        PodGroup CRs and pods, and bare pods asking for one of these names, are
     *                        given to the scheduler (docs/decisions/048-other-workloads.md)
     * @param publishLinger   how long a pod event may wait for others to share its produce request
     *                        (docs/decisions/067-pod-events-linger.md)
     */
    public record Settings(
            KafkaClients kafka,
            String registryUrl,
            RegistrySerdes.Credentials registryCredentials,
            String groupId,
            boolean watchVolcanoApi,
            Optional<String> namespace,
            boolean publishNodes,
            Set<String> schedulerNames,
            Duration publishLinger) {

        /** The service's default linger, {@code lahar.bridge.publish-linger}'s. */
        public static final Duration DEFAULT_PUBLISH_LINGER = Duration.ofMillis(25);
        /** The longest linger: past it a pod's events would reach the engine later than a user notices. */
        public static final Duration MAX_PUBLISH_LINGER = Duration.ofSeconds(1);

        public Settings {
            if (publishLinger.isNegative() || publishLinger.compareTo(MAX_PUBLISH_LINGER) > 0) {
                throw new IllegalArgumentException("lahar.bridge.publish-linger: must be from 0 to "
                        + MAX_PUBLISH_LINGER.toMillis() + " ms, not " + publishLinger.toMillis() + " ms");
            }
        }

        /** With the default linger. */
        public Settings(
                KafkaClients kafka,
                String registryUrl,
                RegistrySerdes.Credentials registryCredentials,
                String groupId,
                boolean watchVolcanoApi,
                Optional<String> namespace,
                boolean publishNodes,
                Set<String> schedulerNames) {
            this(
                    kafka,
                    registryUrl,
                    registryCredentials,
                    groupId,
                    watchVolcanoApi,
                    namespace,
                    publishNodes,
                    schedulerNames,
                    DEFAULT_PUBLISH_LINGER);
        }
    }

    /** The input loop's thread. */
    static final String LOOP = "lahar-bridge-loop";

    private final KafkaRecordSink sink;
    private final BridgeConsumer consumer;
    private final Thread loop;
    /** Whether the loop still polls: a loop held in a call that never returns is alive but does nothing. */
    private final PollWatch polls;

    private final PollWatch.Watching watching;
    private final PodWatcher pods;
    private final NodeWatcher nodes;
    private final VolcanoApiWatcher volcano;
    private final PriorityClassWatcher classes;
    private final WorkloadWatcher workloads;

    private Bridge(
            KafkaRecordSink sink,
            BridgeConsumer consumer,
            PodWatcher pods,
            NodeWatcher nodes,
            VolcanoApiWatcher volcano,
            PriorityClassWatcher classes,
            WorkloadWatcher workloads) {
        this.sink = sink;
        this.classes = classes;
        this.consumer = consumer;
        this.pods = pods;
        this.nodes = nodes;
        this.volcano = volcano;
        this.workloads = workloads;
        this.loop = Thread.ofPlatform().name(LOOP).unstarted(consumer);
        this.loop.setUncaughtExceptionHandler((t, e) -> LOG.error("the bridge's input loop stopped", e));
        this.polls = new PollWatch(
                consumer::metrics, client -> LOOP, PollWatch::stackOf, PollWatch.WARN_AFTER, PollWatch.LIMIT);
        this.watching = polls.watch("lahar-bridge-loop-watch");
    }

    public static Bridge start(KubernetesClient client, Settings settings, Clock clock) {
        Retry retry = Retry.standard();
        EngineDeletions deletions = new EngineDeletions();
        MirrorLedger mirrors = new MirrorLedger();
        RegistrySerdes serdes = new RegistrySerdes(settings.registryUrl(), settings.registryCredentials());
        KafkaRecordSink sink = new KafkaRecordSink(settings.kafka(), serdes, settings.publishLinger());
        CreatedPods created = new CreatedPods();
        PodIntentReconciler intents = new PodIntentReconciler(client, retry, deletions, SshKeyPair::generate, created);
        DecisionReconciler decisions = new DecisionReconciler(client, retry, created);
        BridgeConsumer consumer = new BridgeConsumer(
                settings.kafka(),
                serdes,
                settings.groupId(),
                intents,
                decisions,
                new PodGroupReconciler(client, retry),
                new JobStatusWriter(client, retry, mirrors),
                new FlowStatusWriter(client, retry, mirrors),
                new CronJobStatusWriter(client, retry),
                new QueueStatusWriter(client, retry, mirrors),
                new CommandResultReporter(client, retry),
                sink,
                settings.namespace());
        // Pod changes are noticed by the loop's retry of waiting work between polls (at most a
        // poll interval later); the watcher itself never calls into the cluster.
        PodWatcher pods =
                new PodWatcher(client, sink, deletions, clock, RESYNC_MILLIS, settings.namespace(), created).start();
        NodeWatcher nodes =
                settings.publishNodes() ? new NodeWatcher(client, sink, clock, RESYNC_MILLIS).start() : null;
        VolcanoApiWatcher volcano = settings.watchVolcanoApi()
                ? new VolcanoApiWatcher(client, sink, clock, RESYNC_MILLIS, settings.namespace(), mirrors).start()
                : null;
        // Cluster-scoped, like the Queue CRs: published by a bridge that serves the whole cluster.
        boolean publishClasses = settings.namespace().isEmpty();
        PriorityClassWatcher classes = publishClasses || settings.watchVolcanoApi()
                ? new PriorityClassWatcher(client, sink, clock, RESYNC_MILLIS, publishClasses).start()
                : null;
        WorkloadWatcher workloads = settings.watchVolcanoApi()
                ? new WorkloadWatcher(
                                client,
                                sink,
                                retry,
                                clock,
                                RESYNC_MILLIS,
                                settings.namespace(),
                                settings.schedulerNames(),
                                classes)
                        .start()
                : null;
        Bridge bridge = new Bridge(sink, consumer, pods, nodes, volcano, classes, workloads);
        bridge.loop.start();
        LOG.infof("k8s-bridge started: Kafka %s, cluster %s", settings.kafka(), client.getMasterUrl());
        return bridge;
    }

    /** The input loop runs, and has polled within {@link PollWatch#LIMIT}. */
    public boolean isRunning() {
        return loop.isAlive() && polls.live();
    }

    /** The watch of the input loop's polls. */
    PollWatch polls() {
        return polls;
    }

    /** Why the input loop puts records off (the cluster or the schema registry does not answer), or empty. */
    public java.util.Optional<String> holding() {
        return consumer.holding();
    }

    @Override
    public void close() {
        watching.close();
        consumer.close();
        try {
            loop.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (workloads != null) {
            workloads.close();
        }
        if (classes != null) {
            classes.close();
        }
        if (volcano != null) {
            volcano.close();
        }
        if (nodes != null) {
            nodes.close();
        }
        pods.close();
        sink.close();
    }
}
