package io.lahar.bridge.reconcile;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.lahar.bridge.mapping.BridgeLabels;
import io.lahar.bridge.mapping.ManagedPods;
import io.lahar.bridge.mapping.PodEvents;
import io.lahar.schema.PodEvent;
import io.lahar.schema.Topics;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.logging.Logger;

/**
 * Watches the pods the bridge created (label-selected) and reports each change that matters to the
 * state machine — phase, container exit codes and reasons, node — as a pod event; a deletion is the
 * pod's last event, flagged deletedByOthers unless the engine asked for it. The watch reads only what
 * those events and {@link CreatedPods} need of a pod ({@link ManagedPods}): its pods are not whole.
 */
public final class PodWatcher implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(PodWatcher.class);

    private final KubernetesClient client;
    private final RecordSink sink;
    private final EngineDeletions deletions;
    private final Clock clock;
    private final long resyncMillis;
    private final Optional<String> namespace;
    /** pod UID → what was last reported, so resyncs and status writes that change nothing send nothing. */
    private final Map<String, PodEvent> reported = new ConcurrentHashMap<>();

    private final CreatedPods known;

    private SharedIndexInformer<Pod> informer;

    /**
     * @param resyncMillis how often the informer replays every pod (0: never); a pod event whose
     *                     send failed is sent again then, since an event that could not be sent is forgotten
     * @param namespace    the one namespace to watch, or empty for all
     * @param known        told of every pod the watch sees, so binds and deletes of them need not
     *                     read them first
     */
    public PodWatcher(
            KubernetesClient client,
            RecordSink sink,
            EngineDeletions deletions,
            Clock clock,
            long resyncMillis,
            Optional<String> namespace,
            CreatedPods known) {
        this.known = known;
        this.resyncMillis = resyncMillis;
        this.namespace = namespace;
        this.client = client;
        this.sink = sink;
        this.deletions = deletions;
        this.clock = clock;
    }

    public PodWatcher start() {
        // Its pods read as far as pod events need them; the other reads of the client stay whole.
        KubernetesClient managed = ManagedPods.client(client);
        var pods = namespace.isPresent()
                ? managed.pods().inNamespace(namespace.get())
                : managed.pods().inAnyNamespace();
        informer = Informers.inform(
                pods.withLabel(BridgeLabels.MANAGED_BY, BridgeLabels.MANAGER),
                new ResourceEventHandler<>() {
                    @Override
                    public void onAdd(Pod pod) {
                        changed(pod, false);
                    }

                    @Override
                    public void onUpdate(Pod old, Pod pod) {
                        changed(pod, false);
                    }

                    @Override
                    public void onDelete(Pod pod, boolean finalStateUnknown) {
                        changed(pod, true);
                    }
                },
                resyncMillis);
        return this;
    }

    /** The pods the watch holds, as it read them. */
    List<Pod> watched() {
        return informer.getStore().list();
    }

    void changed(Pod pod, boolean deleted) {
        try {
            known.seen(pod, deleted);
            if (!PodEvents.isJobPod(pod)) {
                return;
            }
            String uid = pod.getMetadata().getUid();
            boolean byOthers = deleted && !deletions.consume(uid);
            PodEvent event = PodEvents.event(pod, deleted, byOthers, clock.instant());
            PodEvent last = deleted ? reported.remove(uid) : reported.get(uid);
            if (!deleted && last != null && sameFacts(last, event)) {
                return;
            }
            if (!deleted) {
                reported.put(uid, event);
            }
            // Not waiting for each event's acknowledgement: one watch's events would pass one at a time.
            sink.publish(Topics.POD_EVENTS.name(), Topics.jobKey(event.getNamespace(), event.getJob()), event, e -> {
                if (!deleted) {
                    // Forgotten, so the next resync sends the pod's facts again.
                    reported.remove(uid, event);
                }
                LOG.errorf(
                        e,
                        "pod %s/%s: pod event not sent",
                        pod.getMetadata().getNamespace(),
                        pod.getMetadata().getName());
            });
        } catch (RuntimeException e) {
            LOG.errorf(
                    e,
                    "pod %s/%s: pod event not sent",
                    pod.getMetadata().getNamespace(),
                    pod.getMetadata().getName());
        }
    }

    static boolean sameFacts(PodEvent a, PodEvent b) {
        return Objects.equals(a.getPhase(), b.getPhase())
                && Objects.equals(a.getContainers(), b.getContainers())
                && Objects.equals(a.getNode(), b.getNode())
                && Objects.equals(a.getReason(), b.getReason())
                && Objects.equals(a.getScheduledTime(), b.getScheduledTime());
    }

    @Override
    public void close() {
        if (informer != null) {
            informer.close();
        }
    }
}
