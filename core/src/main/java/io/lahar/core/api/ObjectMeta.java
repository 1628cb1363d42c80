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
        Draft d = new Draft(this);
        d.name = newName;
        return d.done();
    }

    public ObjectMeta withNamespace(String newNamespace) {
        Draft d = new Draft(this);
        d.namespace = newNamespace;
        return d.done();
    }

    public ObjectMeta withLabels(Map<String, String> newLabels) {
        Draft d = new Draft(this);
        d.labels = newLabels;
        return d.done();
    }

    public ObjectMeta withAnnotations(Map<String, String> newAnnotations) {
        Draft d = new Draft(this);
        d.annotations = newAnnotations;
        return d.done();
    }

    public ObjectMeta withOwnerReferences(List<OwnerReference> refs) {
        Draft d = new Draft(this);
        d.ownerReferences = refs;
        return d.done();
    }

    public Map<String, String> labelsOrEmpty() {
        return labels == null ? Map.of() : labels;
    }

    public Map<String, String> annotationsOrEmpty() {
        return annotations == null ? Map.of() : annotations;
    }

    /**
     * A changing copy of an object's metadata: each wither above changes one of the twelve components, so
     * each names only that one and this class copies the rest.
     */
    private static final class Draft {
        private String name;
        private final String generateName;
        private String namespace;
        private final String uid;
        private final String resourceVersion;
        private final Long generation;
        private final String creationTimestamp;
        private final String deletionTimestamp;
        private Map<String, String> labels;
        private Map<String, String> annotations;
        private List<OwnerReference> ownerReferences;
        private final List<String> finalizers;

        Draft(ObjectMeta m) {
            name = m.name;
            generateName = m.generateName;
            namespace = m.namespace;
            uid = m.uid;
            resourceVersion = m.resourceVersion;
            generation = m.generation;
            creationTimestamp = m.creationTimestamp;
            deletionTimestamp = m.deletionTimestamp;
            labels = m.labels;
            annotations = m.annotations;
            ownerReferences = m.ownerReferences;
            finalizers = m.finalizers;
        }

        ObjectMeta done() {
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
                    ownerReferences,
                    finalizers);
        }
    }
}
