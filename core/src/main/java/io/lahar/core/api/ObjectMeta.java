package io.lahar.core.api;

import java.util.List;
import java.util.Map;

/** Kubernetes ObjectMeta: the fields Lahar reads or keeps. Timestamps stay RFC 3339 strings. */
public record ObjectMeta(
        String name,
        String generateName,
        String namespace,
        String uid,
        String resourceVersion,
        Long generation,
        String creationTimestamp,
        String deletionTimestamp,
        Map<String, String> labels,
        Map<String, String> annotations,
        List<OwnerReference> ownerReferences,
        List<String> finalizers) {

    public static ObjectMeta named(String name) {
        return new ObjectMeta(name, null, null, null, null, null, null, null, null, null, null, null);
    }

    public static ObjectMeta named(String namespace, String name) {
        return new ObjectMeta(name, null, namespace, null, null, null, null, null, null, null, null, null);
    }

    public ObjectMeta withName(String newName) {
        return new ObjectMeta(
                newName,
                generateName,
                namespace,
                uid,
                resourceVersion,
                generation,
                creationTimestamp,
                deletionTimestamp,
                labels,
                annotations,
                ownerReferences,
                finalizers);
    }

    public ObjectMeta withNamespace(String newNamespace) {
        return new ObjectMeta(
                name,
                generateName,
                newNamespace,
                uid,
                resourceVersion,
                generation,
                creationTimestamp,
                deletionTimestamp,
                labels,
                annotations,
                ownerReferences,
                finalizers);
    }

    public ObjectMeta withLabels(Map<String, String> newLabels) {
        return new ObjectMeta(
                name,
                generateName,
                namespace,
                uid,
                resourceVersion,
                generation,
                creationTimestamp,
                deletionTimestamp,
                newLabels,
                annotations,
                ownerReferences,
                finalizers);
    }

    public ObjectMeta withAnnotations(Map<String, String> newAnnotations) {
        return new ObjectMeta(
                name,
                generateName,
                namespace,
                uid,
                resourceVersion,
                generation,
                creationTimestamp,
                deletionTimestamp,
                labels,
                newAnnotations,
                ownerReferences,
                finalizers);
    }

    public ObjectMeta withOwnerReferences(List<OwnerReference> refs) {
        return new ObjectMeta(
                name,
                generateName,
                namespace,
                uid,
                resourceVersion,
                generation,
                creationTimestamp,
                deletionTimestamp,
                labels,
                annotations,
                refs,
                finalizers);
    }

    public Map<String, String> labelsOrEmpty() {
        return labels == null ? Map.of() : labels;
    }

    public Map<String, String> annotationsOrEmpty() {
        return annotations == null ? Map.of() : annotations;
    }
}
