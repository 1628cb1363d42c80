package io.lahar.bridge.webhook;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.lahar.bridge.mapping.VolcanoKinds;
import io.lahar.bridge.reconcile.Informers;
import io.lahar.core.admission.AdmissionContext;
import io.lahar.core.api.Flow;
import io.lahar.core.api.JobFlow;
import io.lahar.core.api.Manifest;
import io.lahar.core.api.ManifestException;
import io.lahar.core.api.Queue;
import io.lahar.core.api.QueueState;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the webhooks look up, as Volcano's webhooks see it through their listers: informers' caches
 * of the Queue and JobTemplate CRs and of the Namespaces, so a review asks the API server nothing
 * while that server waits for the answer (the kube-emulator answers one request at a time: a
 * webhook's call back to it would wait out the webhook's timeout). Every Lahar queue has its CR
 * (the bridge mirrors lahar.queues), and the caches are filled again from the cluster at each
 * start, whatever the bridge's consumer offsets.
 */
public final class KnownObjects implements AutoCloseable {

    private final SharedIndexInformer<GenericKubernetesResource> queues;
    private final SharedIndexInformer<GenericKubernetesResource> templates;
    private final SharedIndexInformer<Namespace> namespaces;
    /** Each queue CR as admission reads it, by name, until its resourceVersion changes: reviews come often, queue edits seldom. */
    private final Map<String, Read> read = new ConcurrentHashMap<>();

    private record Read(String resourceVersion, Queue queue) {}

    private KnownObjects(
            SharedIndexInformer<GenericKubernetesResource> queues,
            SharedIndexInformer<GenericKubernetesResource> templates,
            SharedIndexInformer<Namespace> namespaces) {
        this.queues = queues;
        this.templates = templates;
        this.namespaces = namespaces;
    }

    /** Lists and watches the Queue and JobTemplate CRs and the Namespaces; returns once the first lists are in the caches. */
    public static KnownObjects watch(KubernetesClient client) {
        return new KnownObjects(
                Informers.inform(client.genericKubernetesResources(VolcanoKinds.QUEUES), null, 0),
                Informers.inform(client.genericKubernetesResources(VolcanoKinds.JOB_TEMPLATES), null, 0),
                Informers.inform(client.namespaces(), null, 0));
    }

    /** The annotations of the namespace {@code name}, or empty when the cluster has no such namespace. */
    public Optional<Map<String, String>> namespaceAnnotations(String name) {
        Namespace namespace = namespaces.getStore().getByKey(name);
        if (namespace == null) {
            return Optional.empty();
        }
        Map<String, String> annotations = namespace.getMetadata().getAnnotations();
        return Optional.of(annotations == null ? Map.of() : annotations);
    }

    /** The context admission of {@code reviewed} looks up: the queues, and a JobFlow's templates. */
    public AdmissionContext context(Manifest reviewed) {
        List<GenericKubernetesResource> crs = queues.getStore().list();
        AdmissionContext ctx =
                AdmissionContext.of(crs.stream().map(this::queueOf).toList());
        if (read.size() > crs.size()) {
            read.keySet()
                    .retainAll(
                            crs.stream().map(cr -> cr.getMetadata().getName()).toList());
        }
        if (reviewed instanceof JobFlow flow && flow.spec() != null) {
            for (Flow f : flow.spec().flowsOrEmpty()) {
                if (f == null || f.name() == null) {
                    continue;
                }
                GenericKubernetesResource cr = templates.getStore().getByKey(flow.namespace() + "/" + f.name());
                if (cr != null) {
                    ctx = ctx.with(AdmissionReviews.read(cr, ValidatedKind.JOB_TEMPLATES));
                }
            }
        }
        return ctx;
    }

    private Queue queueOf(GenericKubernetesResource cr) {
        String version = String.valueOf(cr.getMetadata().getResourceVersion());
        Read known = read.get(cr.getMetadata().getName());
        if (known != null && known.resourceVersion().equals(version)) {
            return known.queue();
        }
        Queue queue = queue(cr);
        read.put(cr.getMetadata().getName(), new Read(version, queue));
        return queue;
    }

    /** What admission looks up: these queues, or a fresh install's when there are none. */
    static AdmissionContext ofQueues(Collection<GenericKubernetesResource> queues) {
        return AdmissionContext.of(queues.stream().map(KnownObjects::queue).toList());
    }

    /**
     * The queue a CR shows (spec, annotations, state and allocation: the hierarchy rules read them
     * all); a CR admission cannot read still counts by its name, parent and state, as the engine
     * knows it.
     */
    private static Queue queue(GenericKubernetesResource cr) {
        try {
            return (Queue) AdmissionReviews.read(cr, ValidatedKind.QUEUES);
        } catch (ManifestException | IllegalArgumentException e) {
            Object parent = field(cr, "spec", "parent");
            Object state = field(cr, "status", "state");
            Queue open =
                    AdmissionContext.openQueue(cr.getMetadata().getName(), parent == null ? null : parent.toString());
            QueueState s = state == null ? QueueState.Open : parse(state.toString());
            return new Queue(open.apiVersion(), open.kind(), open.metadata(), open.spec(), Queue.QueueStatus.of(s));
        }
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
        for (SharedIndexInformer<?> informer : List.of(queues, templates, namespaces)) {
            informer.close();
        }
    }
}
