package io.lahar.bridge.reconcile;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiConsumer;

/**
 * Writes a status computed by the engine onto a CR's status subresource: read, compare, write,
 * and on a conflict (the CR changed meanwhile) read again. Objects submitted over Kafka have no CR:
 * nothing to write.
 */
public final class StatusSubresource {

    public enum Outcome {
        WRITTEN,
        UNCHANGED,
        NO_CR
    }

    private static final int ATTEMPTS = 5;

    private final KubernetesClient client;
    private final Retry retry;
    private final ResourceDefinitionContext kind;

    public StatusSubresource(KubernetesClient client, Retry retry, ResourceDefinitionContext kind) {
        this.client = client;
        this.retry = retry;
        this.kind = kind;
    }

    /** @param namespace the CR's namespace; ignored for a cluster-scoped kind (Queue) */
    public Outcome write(String namespace, String name, Map<String, Object> status) {
        return write(namespace, name, status, (cr, before) -> {});
    }

    /**
     * As {@link #write(String, String, Map)}, and once the status is written, {@code written} is
     * given the CR as written and the status it had before (null if none was a map), so a caller
     * can say what changed, in an Event.
     */
    public Outcome write(
            String namespace,
            String name,
            Map<String, Object> status,
            BiConsumer<GenericKubernetesResource, Map<String, Object>> written) {
        var resource = resources(namespace).withName(name);
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            GenericKubernetesResource cr;
            try {
                cr = retry.call(resource::get);
            } catch (KubernetesClientException e) {
                if (Retry.isNotFound(e)) {
                    return Outcome.NO_CR;
                }
                throw e;
            }
            if (cr == null) {
                return Outcome.NO_CR;
            }
            Object before = cr.getAdditionalProperties().get("status");
            if (Objects.equals(before, status)) {
                return Outcome.UNCHANGED;
            }
            cr.setAdditionalProperty("status", status);
            try {
                retry.call(() -> resources(namespace).resource(cr).updateStatus());
            } catch (KubernetesClientException e) {
                if (Retry.isNotFound(e)) {
                    return Outcome.NO_CR;
                }
                if (Retry.isConflict(e)) {
                    continue;
                }
                throw e;
            }
            written.accept(cr, before instanceof Map<?, ?> m ? statusMap(m) : null);
            return Outcome.WRITTEN;
        }
        throw new KubernetesClientException(kind.getKind() + " " + (kind.isNamespaceScoped() ? namespace + "/" : "")
                + name + ": status still conflicting after " + ATTEMPTS + " attempts");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> statusMap(Map<?, ?> status) {
        return (Map<String, Object>) status;
    }

    private io.fabric8.kubernetes.client.dsl.NonNamespaceOperation<
                    GenericKubernetesResource,
                    io.fabric8.kubernetes.api.model.GenericKubernetesResourceList,
                    io.fabric8.kubernetes.client.dsl.Resource<GenericKubernetesResource>>
            resources(String namespace) {
        var all = client.genericKubernetesResources(kind);
        return kind.isNamespaceScoped() ? all.inNamespace(namespace) : all;
    }
}
