package io.lahar.core.api;

/** Kubernetes OwnerReference: how a created Job points at its JobFlow, a PodGroup at its Job. */
public record OwnerReference(
        String apiVersion, String kind, String name, String uid, Boolean controller, Boolean blockOwnerDeletion) {}
