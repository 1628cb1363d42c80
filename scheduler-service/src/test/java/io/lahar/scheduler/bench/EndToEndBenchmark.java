package io.lahar.scheduler.bench;

import io.lahar.core.scheduling.framework.SchedulerConf;
import io.lahar.scheduler.loop.LoopSettings;
import io.lahar.scheduler.loop.LoopState;
import io.lahar.scheduler.loop.SchedulerMetrics;
import io.lahar.scheduler.loop.SchedulingLoop;
import io.lahar.schema.TopicBootstrap;
import io.lahar.schema.serde.RegistrySerdes;
import io.lahar.testkit.LaharInfra;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;

/**
 * Pods bound per second end to end through the broker (not a test: {@code bin/bench-scheduler --e2e}
 * runs it, {@code mvn verify} never does).
 *
 * <p>Untimed set-up: N nodes and three queues on the nodes and queues topics; the real
 * {@link SchedulingLoop}, wired as {@code SchedulerService} wires it (Volcano's default
 * configuration, period 1 s, its own transactional id, read_committed consumer) on its own thread,
 * waited for until it is active; a {@link Kubelet} reading the decisions topic read_committed.
 *
 * <p>Timed: from the first pod group produced to the last {@code Bind} decision read committed.
 * The producer writes each gang's pod group (phase Pending, as the lifecycle engine writes it) and
 * then its pods' {@code CreatePod} intents, as fast as the broker takes them. The loop enqueues and
 * allocates them in its sessions and commits bindings in its transactions.
 *
 * <p>The loop pauses its sessions while {@code max-unconfirmed-bindings} (1000 by default, as the
 * service) bindings wait for a pod event, so the kubelet confirms every binding it reads with a pod
 * event (phase Running on the bound node), as the bridge reports a real cluster's pods; with
 * {@code --no-kubelet} nothing confirms and the cap is raised above the pod count instead.
 *
 * <pre>
 *   EndToEndBenchmark [--nodes N] [--pods P] [--max-unconfirmed M] [--no-kubelet] [--timeout SECONDS]
 * </pre>
 * It starts its own broker and registry (testkit) unless the system properties
 * {@code lahar.kafka.bootstrap} and {@code lahar.registry.url} name running ones; the loop reads
 * every node and pod group on the topics, so a shared broker should hold no other run's.
 */
public final class EndToEndBenchmark {

    public static void main(String[] args) {
        int nodes = 100;
        int pods = 1000;
        int maxUnconfirmed = 1000;
        boolean kubelet = true;
        int timeoutSeconds = 600;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--nodes" -> nodes = positive(args, ++i);
                case "--pods" -> pods = positive(args, ++i);
                case "--max-unconfirmed" -> maxUnconfirmed = positive(args, ++i);
                case "--no-kubelet" -> kubelet = false;
                case "--timeout" -> timeoutSeconds = positive(args, ++i);
                default -> {
                    System.err.println("usage: EndToEndBenchmark [--nodes N] [--pods P] [--max-unconfirmed M]"
                            + " [--no-kubelet] [--timeout SECONDS] (unknown argument: " + args[i] + ")");
                    System.exit(2);
                }
            }
        }
        // The test classpath's log manager has no configuration and would format the clients'
        // DEBUG messages; the service runs at Quarkus' INFO.
        org.jboss.logmanager.LogContext.getLogContext().getLogger("").setLevel(java.util.logging.Level.INFO);
        int status = 0;
        try {
            if (!kubelet) maxUnconfirmed = Math.max(maxUnconfirmed, pods + 1);
            String run = UUID.randomUUID().toString().substring(0, 6);
            new EndToEndBenchmark()
                    .run(
                            LaharInfra.shared(),
                            new BenchWorkload(run, nodes, pods, 42),
                            maxUnconfirmed,
                            kubelet,
                            Duration.ofSeconds(timeoutSeconds));
        } catch (Exception e) {
            System.err.println("bench-scheduler --e2e: failed: " + e);
            e.printStackTrace();
            status = 1;
        }
        // Exits through the shutdown hooks, which stop a broker and registry started here.
        System.exit(status);
    }

    private static int positive(String[] args, int i) {
        if (i >= args.length) throw new IllegalArgumentException(args[i - 1] + " needs a value");
        int value = Integer.parseInt(args[i]);
        if (value <= 0) throw new IllegalArgumentException(args[i - 1] + " must be positive, not " + value);
        return value;
    }

    private void run(LaharInfra infra, BenchWorkload w, int maxUnconfirmed, boolean confirm, Duration timeout)
            throws Exception {
        String bootstrap = infra.bootstrapServers();
        RegistrySerdes serdes = new RegistrySerdes(infra.registryUrl());
        log(
                "%d nodes, %d pods in %d gangs, %d queues; broker %s; kubelet %s, max-unconfirmed-bindings %d",
                w.nodes(),
                w.pods(),
                w.gangs(),
                BenchWorkload.QUEUES.length,
                bootstrap,
                confirm ? "on" : "off",
                maxUnconfirmed);
        TopicBootstrap.ensureTopics(bootstrap);
        Records out = new Records(bootstrap, serdes);
        out.nodesAndQueues(w);
        log("nodes and queues written");

        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        LoopSettings settings = new LoopSettings(
                bootstrap,
                infra.registryUrl(),
                "bench-" + w.run(),
                "bench-" + w.run(),
                Duration.ofSeconds(1),
                SchedulerConf.defaults(),
                maxUnconfirmed,
                Set.of(w.schedulerName()),
                Duration.ofSeconds(30));
        SchedulingLoop loop = new SchedulingLoop(settings, new SchedulerMetrics(registry), Clock.systemUTC());
        Thread loopThread = Thread.ofPlatform().name("lahar-scheduler").start(loop);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (loop.state() != LoopState.ACTIVE) {
            if (loop.state() == LoopState.FAILED || System.nanoTime() > deadline) {
                throw new IllegalStateException("the scheduling loop did not become active: " + loop.state());
            }
            Thread.sleep(20);
        }
        log("scheduling loop active, epoch %d", loop.epoch());

        try (Kubelet kubelet = new Kubelet(bootstrap, serdes, loop.epoch(), confirm)) {
            kubelet.positioned();
            Thread kubeletThread = Thread.ofPlatform().name("kubelet").start(kubelet);
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            long loopCpu0 = threads.getThreadCpuTime(loopThread.threadId());
            long t0 = System.nanoTime();
            Thread progress =
                    Thread.ofPlatform().daemon().name("progress").start(() -> progress(registry, kubelet, t0));
            out.gangs(w);
            long produced = System.nanoTime();
            log("%d pod groups and %d intents written in %.2f s", w.gangs(), w.pods(), (produced - t0) / 1e9);
            while (kubelet.binds() < w.pods()) {
                if (System.nanoTime() > deadline || !loopThread.isAlive()) {
                    throw new IllegalStateException("timed out with " + kubelet.binds() + " of " + w.pods()
                            + " pods bound; loop " + loop.state());
                }
                Thread.sleep(20);
            }
            progress.interrupt();
            long last = kubelet.lastBindNanos();
            double loopCpu = (threads.getThreadCpuTime(loopThread.threadId()) - loopCpu0) / 1e9;
            double seconds = (last - t0) / 1e9;
            Timer sessions = registry.get("lahar.scheduler.session.duration").timer();
            Counter paused = registry.get("lahar.scheduler.sessions.paused").counter();
            kubelet.stop();
            kubeletThread.join(Duration.ofSeconds(10));
            System.out.println();
            System.out.printf(
                    Locale.ROOT,
                    "scheduler end to end: %d nodes x %d pods (%d gangs, %d queues), kubelet %s, %d cores%n",
                    w.nodes(),
                    w.pods(),
                    w.gangs(),
                    BenchWorkload.QUEUES.length,
                    confirm ? "confirming" : "off",
                    Runtime.getRuntime().availableProcessors());
            System.out.printf(Locale.ROOT, "  produced (groups + intents)   %8.3f s%n", (produced - t0) / 1e9);
            System.out.printf(
                    Locale.ROOT, "  first bind committed after    %8.3f s%n", (kubelet.firstBindNanos() - t0) / 1e9);
            System.out.printf(Locale.ROOT, "  last bind committed after     %8.3f s%n", seconds);
            System.out.printf(Locale.ROOT, "  pods bound per second         %8.0f%n", w.pods() / seconds);
            System.out.printf(
                    Locale.ROOT,
                    "  loop thread CPU               %8.3f s = %.0f pods per loop CPU-second%n",
                    loopCpu,
                    w.pods() / loopCpu);
            System.out.printf(
                    Locale.ROOT,
                    "  sessions %d (paused %d): mean %.1f ms, max %.1f ms, total %.3f s%n",
                    sessions.count(),
                    (long) paused.count(),
                    sessions.mean(TimeUnit.MILLISECONDS),
                    sessions.max(TimeUnit.MILLISECONDS),
                    sessions.totalTime(TimeUnit.SECONDS));
            System.out.printf(
                    Locale.ROOT,
                    "  bind decisions read %d, duplicates %d, pod events sent %d%n",
                    kubelet.binds(),
                    kubelet.duplicates(),
                    kubelet.confirmed());
            if (kubelet.duplicates() > 0) throw new IllegalStateException(kubelet.duplicates() + " pods bound twice");
        } finally {
            loop.stop();
            loopThread.join(Duration.ofSeconds(30));
            out.close();
        }
    }

    /** Every second: pods bound so far, sessions run and paused, bindings waiting for a pod event. */
    private static void progress(SimpleMeterRegistry registry, Kubelet kubelet, long t0) {
        try {
            while (true) {
                Thread.sleep(1000);
                log(
                        "t=%5.1f s  bound %6d  sessions %4d  paused %4d  unconfirmed %5.0f",
                        (System.nanoTime() - t0) / 1e9,
                        kubelet.binds(),
                        registry.get("lahar.scheduler.session.duration").timer().count(),
                        (long) registry.get("lahar.scheduler.sessions.paused")
                                .counter()
                                .count(),
                        registry.get("lahar.scheduler.bindings.unconfirmed")
                                .gauge()
                                .value());
            }
        } catch (InterruptedException e) {
            // the run is over
        }
    }

    static void log(String format, Object... args) {
        System.err.printf(Locale.ROOT, "bench-scheduler --e2e: " + format + "%n", args);
    }

    /** Writes the workload's records, asynchronously, as fast as the broker takes them. */
    private static final class Records implements AutoCloseable {
        private final KafkaProducer<String, byte[]> producer;
        private final RegistrySerdes serdes;

        Records(String bootstrap, RegistrySerdes serdes) {
            this.serdes = serdes;
            this.producer = BenchWorkload.producer(bootstrap);
        }

        void nodesAndQueues(BenchWorkload w) {
            w.queues(serdes).forEach(producer::send);
            w.priorityClasses(serdes).forEach(producer::send);
            w.nodeRecords(serdes).forEach(producer::send);
            producer.flush();
        }

        void gangs(BenchWorkload w) {
            w.gangRecords(serdes, producer::send);
            producer.flush();
        }

        @Override
        public void close() {
            producer.close();
        }
    }
}
