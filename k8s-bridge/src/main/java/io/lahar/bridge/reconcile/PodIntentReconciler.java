package io.lahar.bridge.reconcile;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.lahar.bridge.mapping.PluginObjects;
import io.lahar.bridge.mapping.PodTemplates;
import io.lahar.bridge.mapping.Pods;
import io.lahar.bridge.mapping.SshKeyPair;
import io.lahar.core.job.plugins.JobPluginRegistry;
import io.lahar.core.job.plugins.ObjectKind;
import io.lahar.core.util.LruMap;
import io.lahar.schema.CreatePod;
import io.lahar.schema.DeleteObject;
import io.lahar.schema.DeletePod;
import io.lahar.schema.EnsureConfigMap;
import io.lahar.schema.EnsureNetworkPolicy;
import io.lahar.schema.EnsurePersistentVolumeClaim;
import io.lahar.schema.EnsureService;
import io.lahar.schema.EnsureSshSecret;
import io.lahar.schema.PodIntent;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.IntFunction;
import org.jboss.logging.Logger;

/**
 * Makes Kubernetes match the pod intents: create-if-absent, so a redelivered intent never makes a
 * second pod; deletions idempotent; a delete seen before its create is remembered so the create
 * never resurrects the pod; a create whose name is still taken by the previous version's pod
 * waits for that pod to go (Volcano keeps pod names across restarts) and is retried by
 * {@link #retryPending()}.
 * <p>
 * Thread-safe, and concurrent across pods: the bridge's calls for different pods run at once, those
 * for one pod one after the other (the input loop's lanes), so only the shared maps are locked, never
 * a call to the cluster.
 */
public final class PodIntentReconciler {

    private static final Logger LOG = Logger.getLogger(PodIntentReconciler.class);

    /** What became of an intent; tests and logs read it. */
    public enum Outcome {
        CREATED,
        EXISTS,
        WAITING,
        STALE,
        DELETED,
        ABSENT,
        ENSURED
    }

    private static final int DELETED_LIMIT = 200_000;
    /**
     * What the engine may release besides pods, by kind: every kind a job plugin declares and the
     * claims of inline volumes. A plugin with a new kind is released without a change here.
     */
    private static final Map<String, ObjectKind> RELEASABLE = releasable();

    private final KubernetesClient client;
    private final PodWrites writes;
    private final Retry retry;
    private final JobOwners owners;
    private final EngineDeletions deletions;
    private final IntFunction<SshKeyPair> keys;
    private final CreatedPods created;
    private final PodTemplates templates = new PodTemplates();
    /**
     * ns/pod → highest job version a DeletePod was seen for. Bounded, oldest first: a delete that
     * far back has long been followed by its job's later intents.
     */
    private final Map<String, Integer> deletedUpTo = new LruMap<>(DELETED_LIMIT);
    /** ns/pod → the create waiting for the old pod to be gone. */
    private final Map<String, PodIntent> waiting = new LinkedHashMap<>();

    public PodIntentReconciler(
            KubernetesClient client, Retry retry, EngineDeletions deletions, IntFunction<SshKeyPair> keys) {
        this(client, retry, deletions, keys, new CreatedPods());
    }

    /** @param created where the pods it creates are noted, for the binds of {@link DecisionReconciler} */
    public PodIntentReconciler(
            KubernetesClient client,
            Retry retry,
            EngineDeletions deletions,
            IntFunction<SshKeyPair> keys,
            CreatedPods created) {
        this.client = client;
        this.writes = new PodWrites(client);
        this.retry = retry;
        this.owners = new JobOwners(client, retry);
        this.deletions = deletions;
        this.keys = keys;
        this.created = created;
    }

    public Outcome apply(PodIntent intent) {
        String ns = intent.getNamespace();
        return switch (intent.getIntent()) {
            case CreatePod create -> create(intent, create);
            case DeletePod delete -> delete(ns, delete);
            case EnsureService svc -> ensureAbsent(PluginObjects.service(ns, svc, owners.owner(intent)));
            case EnsureConfigMap cm -> ensureConfigMap(PluginObjects.configMap(ns, cm, owners.owner(intent)));
            case EnsureSshSecret ssh -> ensureSecret(intent, ssh);
            case EnsureNetworkPolicy np -> ensureAbsent(PluginObjects.networkPolicy(ns, np, owners.owner(intent)));
            case EnsurePersistentVolumeClaim pvc ->
                ensureAbsent(PluginObjects.persistentVolumeClaim(ns, pvc, owners.owner(intent)));
            case DeleteObject object -> deleteObject(ns, object);
            default ->
                throw new IllegalArgumentException(
                        "intent: unknown kind " + intent.getIntent().getClass().getSimpleName());
        };
    }

    /** Retries the creates that waited for an old pod's deletion. */
    public void retryPending() {
        waitingKeys().forEach(this::retry);
    }

    /** Retries the create waiting under {@code key}, if one does; the caller orders it with that pod's other work. */
    public void retry(String key) {
        PodIntent intent;
        synchronized (this) {
            intent = waiting.get(key);
        }
        if (intent != null) {
            create(intent, (CreatePod) intent.getIntent());
        }
    }

    /** The keys ({@code namespace/pod}) under which creates wait. */
    public synchronized List<String> waitingKeys() {
        return List.copyOf(waiting.keySet());
    }

    public synchronized int pendingCount() {
        return waiting.size();
    }

    /** Whether a create for {@code namespace/pod} still waits (the input loop holds its offset until it does not). */
    public synchronized boolean isWaiting(String key) {
        return waiting.containsKey(key);
    }

    /**
     * A DeletePod the loop will read again later (found by looking ahead after a restart): noted
     * now, so that a create re-read before it is not carried out only to be undone — a deleted pod
     * is never resurrected, not even for a moment.
     */
    public synchronized void deletedAhead(String namespace, DeletePod delete) {
        deletedUpTo.merge(namespace + "/" + delete.getPod(), delete.getJobVersion(), Math::max);
    }

    /** The key under which a create for this intent waits. */
    public static String waitingKey(PodIntent intent) {
        return intent.getIntent() instanceof CreatePod create ? intent.getNamespace() + "/" + create.getPod() : null;
    }

    private Outcome create(PodIntent intent, CreatePod create) {
        String key = intent.getNamespace() + "/" + create.getPod();
        synchronized (this) {
            if (deletedUpTo.getOrDefault(key, -1) >= create.getJobVersion()) {
                waiting.remove(key);
                LOG.debugf(
                        "pod %s: create of version %d dropped, a later delete covers it", key, create.getJobVersion());
                return Outcome.STALE;
            }
        }
        // Create first, read only if the name is taken: a new pod costs one call, not two.
        Pod pod = Pods.pod(intent, create, owners.owner(intent), templates);
        try {
            CreatedPods.Created made = retry.call(() -> writes.create(intent.getNamespace(), pod));
            created.created(key, made);
            stopWaiting(key);
            return Outcome.CREATED;
        } catch (KubernetesClientException e) {
            if (!Retry.isConflict(e)) {
                throw e;
            }
        }
        // AlreadyExists: a redelivery (or a retry of our own create) made it, or the old pod holds the name.
        Pod existing = retry.call(() -> client.pods()
                .inNamespace(intent.getNamespace())
                .withName(create.getPod())
                .get());
        if (existing != null
                && existing.getMetadata().getDeletionTimestamp() == null
                && Pods.jobVersion(existing) >= create.getJobVersion()) {
            created.created(key, existing);
            stopWaiting(key);
            return Outcome.EXISTS;
        }
        // The old pod still goes (or went meanwhile): the create is tried again.
        return waitFor(key, intent);
    }

    private Outcome delete(String ns, DeletePod delete) {
        String key = ns + "/" + delete.getPod();
        synchronized (this) {
            deletedUpTo.merge(key, delete.getJobVersion(), Math::max);
            PodIntent pending = waiting.get(key);
            if (pending != null && ((CreatePod) pending.getIntent()).getJobVersion() <= delete.getJobVersion()) {
                waiting.remove(key);
            }
        }
        var made = created.get(key);
        if (made.isPresent() && made.get().jobVersion() <= delete.getJobVersion()) {
            // This bridge created the pod under that name last, for a version the delete covers:
            // deleted unread (another pod under the name would have been created in this pod's lane, after it).
            created.forget(key);
            deletions.requested(made.get().uid());
            boolean gone = retry.call(() -> writes.delete(ns, delete.getPod()));
            return gone ? Outcome.DELETED : Outcome.ABSENT;
        }
        Pod existing = retry.call(
                () -> client.pods().inNamespace(ns).withName(delete.getPod()).get());
        if (existing == null) {
            return Outcome.ABSENT;
        }
        if (Pods.jobVersion(existing) > delete.getJobVersion()) {
            // The pod of a newer version took the name: this delete is about its predecessor.
            return Outcome.STALE;
        }
        deletions.requested(existing.getMetadata().getUid());
        boolean gone = retry.call(() -> writes.delete(ns, delete.getPod()));
        LOG.debugf("pod %s deleted (%s)", key, delete.getReason());
        return gone ? Outcome.DELETED : Outcome.ABSENT;
    }

    private synchronized Outcome waitFor(String key, PodIntent intent) {
        waiting.put(key, intent);
        return Outcome.WAITING;
    }

    private synchronized void stopWaiting(String key) {
        waiting.remove(key);
    }

    private Outcome ensureAbsent(HasMetadata object) {
        try {
            retry.call(() -> client.resource(object).create());
            return Outcome.CREATED;
        } catch (KubernetesClientException e) {
            if (Retry.isConflict(e)) {
                return Outcome.EXISTS;
            }
            throw e;
        }
    }

    /** Host lists change when a job scales: the ConfigMap is created, or its data replaced. */
    private Outcome ensureConfigMap(ConfigMap wanted) {
        var resource = client.configMaps()
                .inNamespace(wanted.getMetadata().getNamespace())
                .withName(wanted.getMetadata().getName());
        for (int attempt = 0; attempt < 5; attempt++) {
            ConfigMap current = retry.call(resource::get);
            try {
                if (current == null) {
                    retry.call(() -> client.resource(wanted).create());
                    return Outcome.CREATED;
                }
                if (Objects.equals(current.getData(), wanted.getData())) {
                    return Outcome.EXISTS;
                }
                current.setData(wanted.getData());
                retry.call(() -> client.resource(current).update());
                return Outcome.ENSURED;
            } catch (KubernetesClientException e) {
                if (!Retry.isConflict(e)) {
                    throw e;
                }
                // Created or changed under us: read again.
            }
        }
        throw new KubernetesClientException(
                "ConfigMap " + wanted.getMetadata().getName() + ": still conflicting after 5 attempts");
    }

    /** Create-if-absent keeps the key pair stable across restarts of the job and of the bridge. */
    private Outcome ensureSecret(PodIntent intent, EnsureSshSecret ssh) {
        String ns = intent.getNamespace();
        if (retry.call(() ->
                        client.secrets().inNamespace(ns).withName(ssh.getName()).get())
                != null) {
            return Outcome.EXISTS;
        }
        return ensureAbsent(PluginObjects.sshSecret(ns, ssh, keys.apply(ssh.getKeyBits()), owners.owner(intent)));
    }

    /** The engine releases everything a job's plugins may own, and the claims of its inline volumes. */
    private Outcome deleteObject(String ns, DeleteObject object) {
        ObjectKind kind = RELEASABLE.get(object.getKind());
        if (kind == null) {
            throw new IllegalArgumentException("intent.kind: \"" + object.getKind() + "\" is not one of "
                    + String.join(", ", RELEASABLE.keySet()));
        }
        // Named by its apiVersion and kind, the object reads back as its fabric8 model class, whose
        // resource path the client knows without asking the API server.
        HasMetadata named = client.getKubernetesSerialization()
                .unmarshal(client.getKubernetesSerialization()
                        .asJson(Map.of(
                                "apiVersion",
                                kind.apiVersion(),
                                "kind",
                                kind.kind(),
                                "metadata",
                                Map.of("name", object.getName(), "namespace", ns))));
        var gone = retry.call(() -> client.resource(named).delete());
        return gone.isEmpty() ? Outcome.ABSENT : Outcome.DELETED;
    }

    private static Map<String, ObjectKind> releasable() {
        Map<String, ObjectKind> kinds = new TreeMap<>();
        JobPluginRegistry.defaults().objectKinds().forEach(k -> kinds.put(k.kind(), k));
        kinds.put(ObjectKind.PERSISTENT_VOLUME_CLAIM.kind(), ObjectKind.PERSISTENT_VOLUME_CLAIM);
        return Collections.unmodifiableMap(kinds);
    }
}
