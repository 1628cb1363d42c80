package io.lahar.bridge.webhook;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.lahar.bridge.mapping.VolcanoKinds;
import io.lahar.core.admission.AdmissionContext;
import io.lahar.core.api.Queue;
import io.lahar.core.api.QueueState;
import java.util.Collection;
import java.util.Map;

/**
 * The cluster's Queue CRs, as Volcano's webhook sees them through its queue lister: an informer's
 * cache, so a review asks the API server nothing while that server waits for the answer. Every
 * Lahar queue has its CR (the bridge mirrors lahar.queues), and the cache is filled again from the
 * cluster at each start, whatever the bridge's consumer offsets.
 */
public final class KnownQueues implements AutoCloseable {

    private final SharedIndexInformer<GenericKubernetesResource> informer;

    private KnownQueues(SharedIndexInformer<GenericKubernetesResource> informer) {
        this.informer = informer;
    }

    /** Lists and watches the Queue CRs; returns once the first list is in the cache. */
    public static KnownQueues watch(KubernetesClient client) {
        return new KnownQueues(
                client.genericKubernetesResources(VolcanoKinds.QUEUES).inform());
    }

    public AdmissionContext context() {
        return context(informer.getStore().list());
    }

    /** What admission looks up: these queues (name, parent, state), or a fresh install's when there are none. */
    static AdmissionContext context(Collection<GenericKubernetesResource> queues) {
        return AdmissionContext.of(queues.stream().map(KnownQueues::queue).toList());
    }

    private static Queue queue(GenericKubernetesResource cr) {
        Object parent = field(cr, "spec", "parent");
        Object state = field(cr, "status", "state");
        Queue open = AdmissionContext.openQueue(cr.getMetadata().getName(), parent == null ? null : parent.toString());
        QueueState s = state == null ? QueueState.Open : parse(state.toString());
        return new Queue(open.apiVersion(), open.kind(), open.metadata(), open.spec(), Queue.QueueStatus.of(s));
    }

    private static Object field(GenericKubernetesResource cr, String section, String name) {
        return cr.getAdditionalProperties().get(section) instanceof Map<?, ?> map ? map.get(name) : null;
    }

    private static QueueState parse(String state) {
        for (QueueState s : QueueState.values()) {
            if (s.name().equals(state)) {
                return s;
            }
        }
        return QueueState.Unknown;
    }

    @Override
    public void close() {
        informer.close();
    }
}
