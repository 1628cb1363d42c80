package io.lahar.core.api;

/** Kubernetes' core/v1 ObjectReference, as a CronJob's status lists its active jobs. */
public record ObjectReference(
        String kind, String namespace, String name, String uid, String apiVersion, String resourceVersion) {}
