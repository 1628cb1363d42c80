package io.lahar.bridge.reconcile;

import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.lahar.core.scheduling.api.PriorityClasses;
import io.lahar.schema.Topics;
import io.lahar.schema.codec.PriorityClassCodec;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jboss.logging.Logger;

/**
 * The cluster's PriorityClasses ({@code scheduling.k8s.io/v1}): published on
 * {@code lahar.priority-classes} (a tombstone when one is deleted), from which the scheduler
 * resolves every pod group's and pod's priority as Volcano's scheduler cache does from its own
 * informer ({@link PriorityClasses}); and read here, so another workload's PodGroup record carries
 * the priority its {@code priorityClassName} stands for. Each change is told to the listeners, so
 * the groups can be read again.
 */
public final class PriorityClassWatcher implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(PriorityClassWatcher.class);

    private final KubernetesClient client;
    private final RecordSink sink;
    private final Clock clock;
    private final long resyncMillis;
    private final boolean publish;
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
    /** Class name → the record last sent, time left out, so a resync that changes nothing sends nothing. */
    private final Map<String, io.lahar.schema.PriorityClass> sent = new ConcurrentHashMap<>();

    private volatile SharedIndexInformer<PriorityClass> informer;

    /**
     * @param resyncMillis how often every class is replayed (0: never), which re-sends a record whose send failed
     * @param publish      send the classes to {@code lahar.priority-classes}: a bridge that serves the
     *                     whole cluster does, one bound to a namespace only reads them
     */
    public PriorityClassWatcher(
            KubernetesClient client, RecordSink sink, Clock clock, long resyncMillis, boolean publish) {
        this.client = client;
        this.sink = sink;
        this.clock = clock;
        this.resyncMillis = resyncMillis;
        this.publish = publish;
    }

    /** Lists the classes (and publishes them) before it returns. */
    public PriorityClassWatcher start() {
        informer = Informers.inform(
                client.scheduling().v1().priorityClasses(),
                new ResourceEventHandler<>() {
                    @Override
                    public void onAdd(PriorityClass pc) {
                        changed(pc, true);
                    }

                    @Override
                    public void onUpdate(PriorityClass old, PriorityClass pc) {
                        // A resync changes nothing a priority is resolved from: only a send that failed is
                        // tried again.
                        changed(pc, !core(old).equals(core(pc)));
                    }

                    @Override
                    public void onDelete(PriorityClass pc, boolean finalStateUnknown) {
                        deleted(pc);
                    }
                },
                resyncMillis);
        return this;
    }

    /** {@code listener} runs after each change of the classes (not for those listed before it was added). */
    void listen(Runnable listener) {
        listeners.add(listener);
    }

    /** The classes as the watch has them now (none before it started). */
    PriorityClasses current() {
        SharedIndexInformer<PriorityClass> watch = informer;
        return watch == null
                ? PriorityClasses.NONE
                : PriorityClasses.of(watch.getStore().list().stream()
                        .map(PriorityClassWatcher::core)
                        .toList());
    }

    private void changed(PriorityClass pc, boolean tell) {
        String name = pc.getMetadata().getName();
        if (publish) {
            try {
                io.lahar.schema.PriorityClass record = PriorityClassCodec.toRecord(core(pc), clock.instant());
                io.lahar.schema.PriorityClass timeless = io.lahar.schema.PriorityClass.newBuilder(record)
                        .setTime(Instant.EPOCH)
                        .build();
                if (!Objects.equals(sent.get(name), timeless)) {
                    sink.send(Topics.PRIORITY_CLASSES.name(), name, record);
                    sent.put(name, timeless);
                }
            } catch (RuntimeException e) {
                LOG.errorf(e, "PriorityClass %s: record not sent", name);
            }
        }
        if (tell) listeners.forEach(Runnable::run);
    }

    private void deleted(PriorityClass pc) {
        String name = pc.getMetadata().getName();
        if (publish) {
            try {
                sink.send(Topics.PRIORITY_CLASSES.name(), name, null);
                sent.remove(name);
            } catch (RuntimeException e) {
                LOG.errorf(e, "PriorityClass %s: tombstone not sent", name);
            }
        }
        listeners.forEach(Runnable::run);
    }

    private static io.lahar.core.api.PriorityClass core(PriorityClass pc) {
        return new io.lahar.core.api.PriorityClass(
                io.lahar.core.api.PriorityClass.API_VERSION,
                io.lahar.core.api.PriorityClass.KIND,
                io.lahar.core.api.ObjectMeta.named(pc.getMetadata().getName()),
                pc.getValue(),
                pc.getGlobalDefault(),
                pc.getDescription(),
                pc.getPreemptionPolicy());
    }

    @Override
    public void close() {
        if (informer != null) informer.close();
    }
}
