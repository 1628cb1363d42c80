package io.lahar.bridge.reconcile;

import io.fabric8.kubernetes.api.model.Binding;
import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.lahar.bridge.mapping.Pods;
import io.lahar.schema.Bind;
import io.lahar.schema.Evict;
import io.lahar.schema.PodGroupStatus;
import io.lahar.schema.SchedulerDecision;
import io.lahar.schema.Topics;
import io.lahar.schema.WorkloadKeys;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * Carries out the scheduler's decisions, as read back from the decisions topic (never from the
 * scheduler's memory): a Bind goes through the Binding subresource, an Evict deletes the victim.
 * Decisions of an older scheduler epoch are dropped (a fenced instance's last words). A bind that
 * arrives before its pod exists waits and is retried by {@link #retryPending()}.
 * <p>
 * Thread-safe, and concurrent across pods like {@link PodIntentReconciler}: only the epoch and the
 * waiting binds are locked, never a call to the cluster.
 */
public final class DecisionReconciler {

    private static final Logger LOG = Logger.getLogger(DecisionReconciler.class);

    public enum Outcome {
        BOUND,
        ALREADY_BOUND,
        WAITING,
        STALE,
        EVICTED,
        ABSENT,
        IGNORED,
        /** Another workload's pod group status, written to its PodGroup CR. */
        STATUS_WRITTEN
    }

    private final KubernetesClient client;
    private final PodWrites writes;
    private final Retry retry;
    private final WorkloadStatusWriter workloadStatus;
    private long epoch = Long.MIN_VALUE;
    /** ns/pod → the bind waiting for its pod to appear. */
    private final Map<String, SchedulerDecision> waiting = new LinkedHashMap<>();

    private final CreatedPods created;

    /** Whether {@link #created} knows every pod that exists (fed by the creates and the pod watch). */
    private final boolean knowsPods;

    /** Without knowledge of the pods: each bind reads its pod first. */
    public DecisionReconciler(KubernetesClient client, Retry retry) {
        this(client, retry, new CreatedPods(), false);
    }

    /**
     * @param created the pods {@link PodIntentReconciler} created and the pod watch saw: those are
     *                bound without being read first, and a bind of any other waits without a call
     */
    public DecisionReconciler(KubernetesClient client, Retry retry, CreatedPods created) {
        this(client, retry, created, true);
    }

    private DecisionReconciler(KubernetesClient client, Retry retry, CreatedPods created, boolean knowsPods) {
        this.client = client;
        this.writes = new PodWrites(client);
        this.retry = retry;
        this.created = created;
        this.knowsPods = knowsPods;
        this.workloadStatus = new WorkloadStatusWriter(client, retry);
    }

    private static boolean isWorkload(SchedulerDecision decision) {
        return WorkloadKeys.isGroupKey(Topics.jobKey(decision.getNamespace(), decision.getJob()));
    }

    private static Outcome workloads(StatusSubresource.Outcome outcome) {
        return outcome == StatusSubresource.Outcome.WRITTEN ? Outcome.STATUS_WRITTEN : Outcome.IGNORED;
    }

    public Outcome apply(SchedulerDecision decision) {
        synchronized (this) {
            if (decision.getEpoch() < epoch) {
                LOG.infof(
                        "decision for %s/%s of epoch %d dropped: epoch %d has taken over",
                        decision.getNamespace(), decision.getJob(), decision.getEpoch(), epoch);
                return Outcome.STALE;
            }
            if (decision.getEpoch() > epoch) {
                epoch = decision.getEpoch();
                // Binds the old scheduler wanted are its business no longer.
                waiting.values().removeIf(d -> d.getEpoch() < epoch);
            }
        }
        return switch (decision.getDecision()) {
            case Bind bind -> bind(decision, bind, false);
            case Evict evict -> evict(decision.getNamespace(), evict);
            // A Job's pod group phase reaches Kubernetes through the pod-groups topic, which the
            // engine derives from this same decision; writing it here too would race that record.
            // Another workload's group has no engine behind it: its status goes to its CR from here.
            case PodGroupStatus ignored ->
                isWorkload(decision) ? workloads(workloadStatus.apply(decision)) : Outcome.IGNORED;
            default ->
                throw new IllegalArgumentException("decision: unknown kind "
                        + decision.getDecision().getClass().getSimpleName());
        };
    }

    public void retryPending() {
        waitingKeys().forEach(this::retry);
    }

    /** Retries the bind waiting under {@code key}, if one does; the caller orders it with that pod's other work. */
    public void retry(String key) {
        retry(key, false);
    }

    /** As {@link #retry}, reading the pod even if not known to exist (made before a restart, or by another bridge). */
    public void sweep(String key) {
        retry(key, true);
    }

    private void retry(String key, boolean sweeping) {
        SchedulerDecision decision;
        synchronized (this) {
            decision = waiting.get(key);
        }
        if (decision != null) {
            bind(decision, (Bind) decision.getDecision(), sweeping);
        }
    }

    /** The keys ({@code namespace/pod}) under which binds wait. */
    public synchronized List<String> waitingKeys() {
        return List.copyOf(waiting.keySet());
    }

    /**
     * The keys of waiting binds whose pod this bridge has created or seen since, and of other
     * workloads' pods (their operators create them, unseen here): those are worth a call now; the
     * others' pods do not exist yet, unless made before a restart or by another bridge.
     */
    public synchronized List<String> waitingKeysCreated() {
        return waiting.entrySet().stream()
                .filter(e -> created.get(e.getKey()).isPresent() || isWorkload(e.getValue()))
                .map(Map.Entry::getKey)
                .toList();
    }

    /** The engine deleted the pod: a bind still waiting for it must not bind its successor. */
    public synchronized void forget(String namespace, String pod) {
        waiting.remove(namespace + "/" + pod);
    }

    public synchronized int pendingCount() {
        return waiting.size();
    }

    /** Whether a bind for {@code namespace/pod} still waits (the input loop holds its offset until it does not). */
    public synchronized boolean isWaiting(String key) {
        return waiting.containsKey(key);
    }

    /** The key under which a bind of this decision waits. */
    public static String waitingKey(SchedulerDecision decision) {
        return decision.getDecision() instanceof Bind bind ? decision.getNamespace() + "/" + bind.getPod() : null;
    }

    private Outcome bind(SchedulerDecision decision, Bind bind, boolean sweeping) {
        String ns = decision.getNamespace();
        String key = ns + "/" + bind.getPod();
        var made = created.get(key);
        if (made.isPresent() && made.get().jobVersion() == bind.getJobVersion()) {
            // The pod this bridge created for this version: bound unread, the UID as precondition.
            try {
                Binding binding = binding(ns, bind, made.get().uid());
                retry.run(() -> writes.bind(ns, binding));
                stopWaiting(key);
                return Outcome.BOUND;
            } catch (KubernetesClientException e) {
                // 404: gone; 409: another pod holds the name, or it is bound or going: read it, as below.
                if (!Retry.isNotFound(e) && !Retry.isConflict(e)) {
                    throw e;
                }
                created.forget(key);
            }
        } else if (made.isEmpty() && knowsPods && !sweeping && !isWorkload(decision)) {
            // Not created nor seen yet: its create (or the watch) brings the bind back, no call meanwhile.
            // Another workload's pods are its operator's, neither created nor watched here: read.
            return waitFor(key, decision);
        }
        Pod pod = retry.call(
                () -> client.pods().inNamespace(ns).withName(bind.getPod()).get());
        if (pod == null) {
            return waitFor(key, decision);
        }
        if (bind.getJobVersion() > 0 && Pods.jobVersion(pod) > bind.getJobVersion()) {
            stopWaiting(key);
            return Outcome.STALE;
        }
        if (bind.getJobVersion() > Pods.jobVersion(pod) || pod.getMetadata().getDeletionTimestamp() != null) {
            // The previous version's pod still holds the name: bind its successor when it appears.
            return waitFor(key, decision);
        }
        stopWaiting(key);
        String current = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
        if (current != null && !current.isEmpty()) {
            return alreadyBound(key, current, bind);
        }
        Binding binding = binding(ns, bind, null);
        try {
            retry.run(() -> writes.bind(ns, binding));
            return Outcome.BOUND;
        } catch (KubernetesClientException e) {
            if (Retry.isNotFound(e)) {
                return waitFor(key, decision);
            }
            if (Retry.isConflict(e)) {
                // Bound meanwhile (a redelivered decision, or another binder): see to whom.
                Pod again = retry.call(() ->
                        client.pods().inNamespace(ns).withName(bind.getPod()).get());
                String node = again == null || again.getSpec() == null
                        ? null
                        : again.getSpec().getNodeName();
                return alreadyBound(key, node, bind);
            }
            throw e;
        }
    }

    /** The Binding of {@code bind}, valid only for the pod with {@code uid} (the API server's precondition). */
    private static Binding binding(String ns, Bind bind, String uid) {
        return new BindingBuilder()
                .withNewMetadata()
                .withName(bind.getPod())
                .withNamespace(ns)
                .withUid(uid)
                .endMetadata()
                .withNewTarget()
                .withApiVersion("v1")
                .withKind("Node")
                .withName(bind.getNode())
                .endTarget()
                .build();
    }

    /** A bind of an epoch taken over meanwhile is dropped, not kept waiting. */
    private synchronized Outcome waitFor(String key, SchedulerDecision decision) {
        if (decision.getEpoch() < epoch) {
            waiting.remove(key);
            return Outcome.STALE;
        }
        waiting.put(key, decision);
        return Outcome.WAITING;
    }

    private synchronized void stopWaiting(String key) {
        waiting.remove(key);
    }

    private Outcome alreadyBound(String key, String node, Bind bind) {
        if (!bind.getNode().equals(node)) {
            LOG.warnf("pod %s: bind to %s dropped, the pod is already on %s", key, bind.getNode(), node);
        }
        return Outcome.ALREADY_BOUND;
    }

    /** An eviction deletes the victim; its deletion is reported as by others, Volcano's PodEvicted. */
    private Outcome evict(String ns, Evict evict) {
        forget(ns, evict.getPod());
        Pod pod = retry.call(
                () -> client.pods().inNamespace(ns).withName(evict.getPod()).get());
        if (pod == null) {
            return Outcome.ABSENT;
        }
        if (evict.getJobVersion() > 0 && Pods.jobVersion(pod) > evict.getJobVersion()) {
            return Outcome.STALE;
        }
        LOG.infof("pod %s/%s evicted: %s (%s)", ns, evict.getPod(), evict.getReason(), evict.getAction());
        boolean gone = retry.call(() -> writes.delete(ns, evict.getPod()));
        return gone ? Outcome.EVICTED : Outcome.ABSENT;
    }
}
