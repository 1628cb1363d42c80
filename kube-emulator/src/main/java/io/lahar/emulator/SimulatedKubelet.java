package io.lahar.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeAddress;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.MockResponse;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * The kubelets of the simulated nodes, in one watcher of the store: a pod bound to a node (by the
 * Binding subresource or created with {@code spec.nodeName}) goes Pending → Running at once, and
 * after the duration of its {@link PodRunPlan} to Succeeded (exit code 0) or Failed (any other),
 * with the container statuses a real kubelet reports. Like KWOK's stages, nothing actually runs.
 *
 * <p>It lives in the API's JVM and reaches the API in-process ({@link InProcessApi}): it watches
 * nodes and pods as the store's watchers are told of them, with no connection, and its writes are
 * requests handed to the API's dispatcher, so they take a client's path (resource versions, 409
 * conflicts, the journal, every other watcher told). Status changes go through the {@code status}
 * subresource and are retried on conflict, so a bridge updating the same pod never loses them. The
 * kubelet decides on one thread and makes its requests on others ({@link #CONCURRENT_CALLS} at
 * once), as each node's kubelet would: a pod's start never waits for another pod's write, and one
 * pod's writes still come one after the other (its completion is timed from its start's answer).
 * Deleting a node evicts (deletes) the pods bound to it; a pod bound to a node that does not exist
 * stays Pending and is deleted after the pod-GC grace period, as kube-controller-manager's pod GC
 * does with orphaned pods.
 *
 * <p>The wall clock is used on purpose: this is the outside world the engine reacts to, not the
 * deterministic core. {@code timeScale} multiplies every duration (0.01 makes a 10 s pod take 100 ms).
 * Restart policies are not simulated: every container runs once, as with {@code restartPolicy: Never}.
 */
public final class SimulatedKubelet implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(SimulatedKubelet.class.getName());
    /** kube-controller-manager's pod GC quarantine before deleting a pod whose node is gone. */
    static final Duration ORPHAN_GRACE = Duration.ofSeconds(40);

    private static final int UPDATE_ATTEMPTS = 10;
    /** Requests under way at once, across all the simulated nodes. */
    static final int CONCURRENT_CALLS = 16;

    private final InProcessApi api;
    private final Clock clock;
    private final double timeScale;
    private final ScheduledExecutorService executor;
    private final ExecutorService calls = Executors.newThreadPerTaskExecutor(
            Thread.ofVirtual().name("lahar-simulated-kubelet-call-", 0).factory());
    private final Semaphore callSlots = new Semaphore(CONCURRENT_CALLS);
    /** Pending completions and orphan checks by pod uid; touched only on the executor thread. */
    private final Map<String, Tracked> timers = new HashMap<>();
    /** The nodes by name, as the node watch told of them; touched only on the executor thread. */
    private final Map<String, Node> nodes = new HashMap<>();
    /** Whether the pod watch is open: a node told of before it has no pods to start yet (executor thread). */
    private boolean podsWatched;

    private final AtomicInteger podIpCounter = new AtomicInteger();
    private AutoCloseable nodeWatch;
    private AutoCloseable podWatch;

    SimulatedKubelet(InProcessApi api, Clock clock, double timeScale) {
        if (!(timeScale >= 0) || Double.isInfinite(timeScale)) {
            throw new IllegalArgumentException("timeScale: must be a finite number >= 0, got " + timeScale);
        }
        this.api = api;
        this.clock = clock;
        this.timeScale = timeScale;
        this.executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "lahar-simulated-kubelet");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Starts watching nodes, then pods: what exists, then every change, is handed to the deciding
     * thread in the order written.
     */
    public synchronized void start() {
        if (podWatch != null) {
            return;
        }
        nodeWatch = api.watch("/api/v1/nodes", (type, json) -> decide(() -> onNode(type, json)));
        decide(() -> podsWatched = true);
        podWatch = api.watchEvents("/api/v1/pods", event -> decide(() -> onPod(event)));
    }

    @Override
    public synchronized void close() {
        for (AutoCloseable watch : new AutoCloseable[] {podWatch, nodeWatch}) {
            if (watch != null) {
                try {
                    watch.close();
                } catch (Exception e) {
                    LOG.log(System.Logger.Level.WARNING, "closing a simulated kubelet's watch: " + e);
                }
            }
        }
        executor.shutdownNow();
        calls.shutdownNow();
    }

    /**
     * Hands {@code decision} to the deciding thread. Watch events come here under the store's write
     * lock, so a closed kubelet drops them rather than fail the write that told them.
     */
    private void decide(Runnable decision) {
        try {
            executor.execute(() -> {
                try {
                    decision.run();
                } catch (RuntimeException e) {
                    LOG.log(System.Logger.Level.WARNING, "a simulated kubelet's decision failed: " + e);
                }
            });
        } catch (RejectedExecutionException closed) {
            // closed: nothing more to decide
        }
    }

    private void onNode(String type, String json) {
        Node node = Serialization.unmarshal(json, Node.class);
        String name = node.getMetadata().getName();
        switch (type) {
            case "ADDED" -> {
                nodes.put(name, node);
                if (podsWatched) {
                    startPodsOn(name);
                }
            }
            case "DELETED" -> {
                nodes.remove(name);
                evictPodsOn(name);
            }
            // Capacity or labels changing does not concern a kubelet that runs nothing; its address may.
            default -> nodes.put(name, node);
        }
    }

    /** Read from the event's tree, the store's own (shared, never changed): most events concern no start. */
    private void onPod(StoreEvent event) {
        if ("DELETED".equals(event.type())) {
            forget(event.tree().path("metadata").path("uid").asText());
        } else {
            reconcile(event.tree());
        }
    }

    /** Runs {@code call} off the deciding thread, once a call slot is free. */
    private void call(Runnable call) {
        calls.execute(() -> {
            try {
                callSlots.acquire();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            try {
                call.run();
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "a simulated kubelet's call failed: " + e.getMessage());
            } finally {
                callSlots.release();
            }
        });
    }

    /** {@code tree} is shared and never changed: the statuses written are built beside it. */
    private void reconcile(JsonNode tree) {
        JsonNode metadata = tree.path("metadata");
        String uid = metadata.path("uid").asText();
        if (metadata.hasNonNull("deletionTimestamp")) {
            forget(uid);
            return;
        }
        String nodeName = tree.path("spec").path("nodeName").asText("");
        if (nodeName.isEmpty()) {
            return; // not scheduled yet: no kubelet has it
        }
        String phase = tree.path("status").path("phase").asText(null);
        if ("Succeeded".equals(phase) || "Failed".equals(phase)) {
            forget(uid);
            return;
        }
        if (timers.containsKey(uid)) {
            return; // already running (or waiting for its node)
        }
        String namespace = metadata.path("namespace").asText();
        String name = metadata.path("name").asText();
        Node on = nodes.get(nodeName);
        if (on == null) {
            scheduleOrphanCheck(namespace, name, uid, nodeName);
            return;
        }
        PodRunPlan plan = PodRunPlan.of(tree);
        plan.problems()
                .forEach(problem -> LOG.log(
                        System.Logger.Level.WARNING, "pod " + namespace + "/" + name + ": " + problem + " (ignored)"));
        if ("Running".equals(phase)) {
            // Running since before this kubelet started.
            run(namespace, name, uid, plan, startTimeOf(tree).orElse(Instant.now(clock)));
            return;
        }
        Instant started = Instant.now(clock);
        timers.put(uid, new Starting());
        call(() -> {
            boolean running = markRunning(tree, namespace, name, uid, on, started);
            decide(() -> {
                if (!(timers.get(uid) instanceof Starting)) {
                    return; // deleted meanwhile
                }
                timers.remove(uid);
                if (running) {
                    run(namespace, name, uid, plan, started);
                }
            });
        });
    }

    private void run(String namespace, String name, String uid, PodRunPlan plan, Instant started) {
        plan.duration()
                .ifPresentOrElse(
                        duration -> scheduleCompletion(namespace, name, uid, plan, started, duration),
                        () -> timers.put(uid, new RunningUntilDeleted()));
    }

    private void startPodsOn(String nodeName) {
        for (JsonNode pod : podsOn(nodeName)) {
            String uid = pod.path("metadata").path("uid").asText();
            if (timers.get(uid) instanceof AwaitingNode) {
                forget(uid);
            }
            reconcile(pod);
        }
    }

    /** A node that is gone takes its pods with it: they are deleted, as the pod GC does. */
    private void evictPodsOn(String nodeName) {
        for (JsonNode pod : podsOn(nodeName)) {
            JsonNode metadata = pod.path("metadata");
            forget(metadata.path("uid").asText());
            String namespace = metadata.path("namespace").asText();
            String name = metadata.path("name").asText();
            call(() -> delete(namespace, name, "its node " + nodeName + " was deleted"));
        }
    }

    /** The pods bound to {@code nodeName}, as the store holds them now. */
    private List<JsonNode> podsOn(String nodeName) {
        String selector = URLEncoder.encode("spec.nodeName=" + nodeName, StandardCharsets.UTF_8);
        MockResponse answer = api.send(HttpMethod.GET, "/api/v1/pods?fieldSelector=" + selector, null);
        if (answer.code() != 200) {
            throw new IllegalStateException(
                    "listing the pods on node " + nodeName + ": " + answer.code() + " " + CrudStore.bodyOf(answer));
        }
        List<JsonNode> pods = new ArrayList<>();
        CrudStore.parse(CrudStore.bodyOf(answer)).path("items").forEach(pods::add);
        return pods;
    }

    private boolean markRunning(JsonNode pod, String namespace, String name, String uid, Node node, Instant now) {
        String hostIp = node.getStatus() == null || node.getStatus().getAddresses() == null
                ? "10.0.0.1"
                : node.getStatus().getAddresses().stream()
                        .filter(a -> "InternalIP".equals(a.getType()))
                        .map(NodeAddress::getAddress)
                        .findFirst()
                        .orElse("10.0.0.1");
        int n = podIpCounter.getAndIncrement();
        String podIp = "10.244." + (n / 250) + "." + (n % 250 + 2);
        String at = timestamp(now);
        return updateStatus(pod, namespace, name, uid, current -> PodStatusTrees.running(current, hostIp, podIp, at));
    }

    private void scheduleCompletion(
            String namespace, String name, String uid, PodRunPlan plan, Instant started, Duration duration) {
        long scaledNanos = (long) (duration.toNanos() * timeScale);
        long elapsed = Duration.between(started, Instant.now(clock)).toNanos();
        long delay = Math.max(0, scaledNanos - Math.max(0, elapsed));
        timers.put(
                uid,
                new Completing(executor.schedule(
                        () -> {
                            // Until its write is answered, another event of the pod (Running still) starts nothing.
                            timers.put(uid, new Finishing());
                            call(() -> {
                                try {
                                    complete(namespace, name, uid, plan);
                                } finally {
                                    decide(() -> {
                                        if (timers.get(uid) instanceof Finishing) {
                                            timers.remove(uid);
                                        }
                                    });
                                }
                            });
                        },
                        delay,
                        TimeUnit.NANOSECONDS)));
    }

    private void complete(String namespace, String name, String uid, PodRunPlan plan) {
        JsonNode pod = api.read(path(namespace, name)).orElse(null);
        if (pod == null || !uid.equals(pod.path("metadata").path("uid").asText(null))) {
            return;
        }
        String at = timestamp(Instant.now(clock));
        updateStatus(pod, namespace, name, uid, current -> PodStatusTrees.ended(current, plan.exitCode(), at));
    }

    /** A pod bound to a node that does not exist is deleted once the pod-GC grace has passed. */
    private void scheduleOrphanCheck(String namespace, String name, String uid, String nodeName) {
        long delay = (long) (ORPHAN_GRACE.toNanos() * timeScale);
        ScheduledFuture<?> check = executor.schedule(
                () -> {
                    timers.remove(uid);
                    if (!nodes.containsKey(nodeName)) {
                        call(() -> delete(namespace, name, "its node " + nodeName + " does not exist"));
                    }
                },
                delay,
                TimeUnit.NANOSECONDS);
        timers.put(uid, new AwaitingNode(check));
    }

    private void delete(String namespace, String name, String why) {
        MockResponse answer = api.send(HttpMethod.DELETE, path(namespace, name), null);
        if (answer.code() < 300) {
            LOG.log(System.Logger.Level.INFO, "evicted pod " + namespace + "/" + name + ": " + why);
        } else if (answer.code() != 404) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    "could not evict pod " + namespace + "/" + name + ": " + answer.code() + " "
                            + CrudStore.bodyOf(answer));
        }
    }

    /**
     * Writes the status {@code statusOf} builds from the latest version of the pod ({@code pod},
     * then the store's) through the status subresource, re-reading and retrying when another
     * writer got there first. {@code statusOf} returns null when the pod no longer needs it; the
     * trees it is handed are the store's, not to be changed.
     */
    private boolean updateStatus(
            JsonNode pod, String namespace, String name, String uid, Function<JsonNode, ObjectNode> statusOf) {
        String path = path(namespace, name);
        JsonNode current = pod;
        for (int attempt = 0; attempt < UPDATE_ATTEMPTS; attempt++) {
            if (attempt > 0) {
                current = api.read(path).orElse(null);
            }
            if (current == null
                    || !uid.equals(current.path("metadata").path("uid").asText(null))) {
                return false;
            }
            ObjectNode status = statusOf.apply(current);
            if (status == null) {
                return false;
            }
            // The stored pod's parts with the new status: the store keeps only the status of it.
            ObjectNode desired = JsonNodeFactory.instance.objectNode();
            desired.setAll((ObjectNode) current);
            desired.set("status", status);
            MockResponse answer = api.writeStatus(path, desired);
            if (answer.code() < 300) {
                return true;
            }
            if (answer.code() == 404) {
                return false;
            }
            if (answer.code() != 409) {
                LOG.log(
                        System.Logger.Level.WARNING,
                        "could not update the status of pod " + namespace + "/" + name + ": " + answer.code() + " "
                                + CrudStore.bodyOf(answer));
                return false;
            }
        }
        LOG.log(
                System.Logger.Level.WARNING,
                "gave up updating the status of pod " + namespace + "/" + name + " after " + UPDATE_ATTEMPTS
                        + " conflicts");
        return false;
    }

    private static String path(String namespace, String name) {
        return "/api/v1/namespaces/" + namespace + "/pods/" + name;
    }

    private void forget(String uid) {
        Tracked tracked = timers.remove(uid);
        if (tracked != null) {
            tracked.cancel();
        }
    }

    private static Optional<Instant> startTimeOf(JsonNode pod) {
        try {
            return Optional.ofNullable(PodStatusTrees.text(pod.path("status").get("startTime")))
                    .map(Instant::parse);
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    private static String timestamp(Instant instant) {
        return instant.truncatedTo(ChronoUnit.SECONDS).toString();
    }

    /** What the kubelet is doing about one pod. */
    private sealed interface Tracked {
        default void cancel() {}
    }

    /** Running; the future moves it to Succeeded or Failed. */
    private record Completing(ScheduledFuture<?> timer) implements Tracked {
        @Override
        public void cancel() {
            timer.cancel(false);
        }
    }

    /** Its end (the status write to Succeeded or Failed) is under way. */
    private record Finishing() implements Tracked {}

    /** Its start (the status write to Running) is under way. */
    private record Starting() implements Tracked {}

    /** Running with no duration: it stays Running until it is deleted. */
    private record RunningUntilDeleted() implements Tracked {}

    /** Bound to a node that does not exist; the future deletes it unless the node appears. */
    private record AwaitingNode(ScheduledFuture<?> check) implements Tracked {
        @Override
        public void cancel() {
            check.cancel(false);
        }
    }
}
