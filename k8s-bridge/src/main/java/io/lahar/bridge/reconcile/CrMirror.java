package io.lahar.bridge.reconcile;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.lahar.bridge.mapping.Mirrors;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Keeps one kind of Volcano CR in step with the Lahar objects of that kind (see {@link Mirrors} for
 * the ownership rule): a Lahar object without a CR gets a mirrored one; a mirrored CR takes the
 * object's labels, annotations and spec; a user's CR only its status. Deleting the Lahar object
 * deletes its CR, whoever made it, and the watcher is told the bridge did it ({@link MirrorLedger}).
 */
public final class CrMirror {

    public enum Outcome {
        CREATED,
        UPDATED,
        UNCHANGED,
        /** The CR was deleted in the cluster; its delete command is on its way to the engine. */
        SKIPPED,
        DELETED,
        ABSENT,
        /** The cluster does not serve the kind (no Volcano CRDs): there is nothing to show the object as. */
        NO_KIND
    }

    /** Told of a status about to be written, before it is: an Event about the change is never lost to a retry. */
    @FunctionalInterface
    public interface StatusChange {
        /** @param before the CR's status until now, null on a new CR; @param crUid the CR's UID */
        void coming(Object before, String crUid);
    }

    /** Whether the record's status is written on every change, or only on a new CR (another topic keeps it). */
    public enum StatusPolicy {
        ALWAYS,
        ON_CREATE
    }

    private static final int ATTEMPTS = 5;

    private final KubernetesClient client;
    private final Retry retry;
    private final ResourceDefinitionContext kind;
    private final MirrorLedger ledger;
    private final StatusPolicy statusPolicy;

    public CrMirror(
            KubernetesClient client,
            Retry retry,
            ResourceDefinitionContext kind,
            MirrorLedger ledger,
            StatusPolicy statusPolicy) {
        this.client = client;
        this.retry = retry;
        this.kind = kind;
        this.ledger = ledger;
        this.statusPolicy = statusPolicy;
    }

    /** @param wanted the mirror as {@link Mirrors} makes it, status included */
    public Outcome apply(GenericKubernetesResource wanted) {
        return apply(wanted, (before, uid) -> {});
    }

    /** As {@link #apply}, telling {@code change} of a status change before writing it. */
    public Outcome apply(GenericKubernetesResource wanted, StatusChange change) {
        String namespace = wanted.getMetadata().getNamespace();
        String name = wanted.getMetadata().getName();
        String engineUid = wanted.getMetadata().getAnnotations().get(Mirrors.MIRROR_OF);
        if (!Mirrors.QUEUE_SOURCE.equals(engineUid) && ledger.isDeletedInCluster(engineUid)) {
            return Outcome.SKIPPED;
        }
        Object status = wanted.getAdditionalProperties().get("status");
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            try {
                GenericKubernetesResource current = get(namespace, name);
                if (current == null) {
                    GenericKubernetesResource bare = copyWithout(wanted, "status");
                    GenericKubernetesResource created;
                    try {
                        created = retry.call(
                                () -> resources(namespace).resource(bare).create());
                    } catch (KubernetesClientException e) {
                        if (Retry.isNotFound(e)) {
                            return Outcome.NO_KIND;
                        }
                        throw e;
                    }
                    change.coming(null, created.getMetadata().getUid());
                    // A real apiserver drops status on create for a CRD with a status subresource.
                    writeStatus(created, status);
                    return Outcome.CREATED;
                }
                boolean changed = false;
                if (Mirrors.isMirror(current) && !sameObject(current, wanted)) {
                    current.getMetadata().setLabels(wanted.getMetadata().getLabels());
                    Map<String, String> annotations = new LinkedHashMap<>();
                    if (current.getMetadata().getAnnotations() != null) {
                        annotations.putAll(current.getMetadata().getAnnotations());
                    }
                    annotations.putAll(wanted.getMetadata().getAnnotations());
                    current.getMetadata().setAnnotations(annotations);
                    current.setAdditionalProperty(
                            "spec", wanted.getAdditionalProperties().get("spec"));
                    GenericKubernetesResource edited = current;
                    current = retry.call(
                            () -> resources(namespace).resource(edited).update());
                    changed = true;
                }
                if (statusPolicy == StatusPolicy.ALWAYS
                        && !Objects.equals(current.getAdditionalProperties().get("status"), status)) {
                    change.coming(
                            current.getAdditionalProperties().get("status"),
                            current.getMetadata().getUid());
                    writeStatus(current, status);
                    changed = true;
                }
                return changed ? Outcome.UPDATED : Outcome.UNCHANGED;
            } catch (KubernetesClientException e) {
                // 409: created by someone meanwhile, or changed since read: read again.
                if (!Retry.isConflict(e)) {
                    throw e;
                }
            }
        }
        throw new KubernetesClientException(kind.getKind() + " " + (namespace == null ? "" : namespace + "/") + name
                + ": still conflicting after " + ATTEMPTS + " attempts");
    }

    /**
     * The Lahar object is gone: so goes its CR. A user's CR that the engine has not answered yet (no
     * status) is a new one of the same name, applied after the old was deleted, and is left alone.
     */
    public Outcome delete(String namespace, String name) {
        GenericKubernetesResource current = get(namespace, name);
        if (current == null) {
            return Outcome.ABSENT;
        }
        if (!Mirrors.isMirror(current) && current.getAdditionalProperties().get("status") == null) {
            return Outcome.UNCHANGED;
        }
        ledger.deletingCr(current.getMetadata().getUid());
        try {
            retry.call(() -> resources(namespace).withName(name).delete());
        } catch (KubernetesClientException e) {
            if (!Retry.isNotFound(e)) {
                throw e;
            }
        }
        return Outcome.DELETED;
    }

    private GenericKubernetesResource get(String namespace, String name) {
        try {
            return retry.call(() -> resources(namespace).withName(name).get());
        } catch (KubernetesClientException e) {
            if (Retry.isNotFound(e)) {
                return null;
            }
            throw e;
        }
    }

    private void writeStatus(GenericKubernetesResource current, Object status) {
        if (status == null) {
            return;
        }
        current.setAdditionalProperty("status", status);
        retry.call(() -> resources(current.getMetadata().getNamespace())
                .resource(current)
                .updateStatus());
    }

    private static boolean sameObject(GenericKubernetesResource current, GenericKubernetesResource wanted) {
        Map<String, String> annotations = current.getMetadata().getAnnotations();
        return Objects.equals(
                        current.getAdditionalProperties().get("spec"),
                        wanted.getAdditionalProperties().get("spec"))
                && Objects.equals(
                        labels(current.getMetadata().getLabels()),
                        labels(wanted.getMetadata().getLabels()))
                && wanted.getMetadata().getAnnotations().entrySet().stream()
                        .allMatch(e -> annotations != null && e.getValue().equals(annotations.get(e.getKey())));
    }

    private static Map<String, String> labels(Map<String, String> labels) {
        return labels == null ? Map.of() : labels;
    }

    private static GenericKubernetesResource copyWithout(GenericKubernetesResource cr, String property) {
        GenericKubernetesResource copy = new GenericKubernetesResource();
        copy.setApiVersion(cr.getApiVersion());
        copy.setKind(cr.getKind());
        copy.setMetadata(cr.getMetadata());
        cr.getAdditionalProperties().forEach((k, v) -> {
            if (!k.equals(property)) {
                copy.setAdditionalProperty(k, v);
            }
        });
        return copy;
    }

    private NonNamespaceOperation<
                    GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>>
            resources(String namespace) {
        var all = client.genericKubernetesResources(kind);
        return kind.isNamespaceScoped() ? all.inNamespace(namespace) : all;
    }
}
