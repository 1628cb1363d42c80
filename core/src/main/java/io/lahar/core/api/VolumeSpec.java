package io.lahar.core.api;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** A job-level volume: where to mount it, and an existing claim name or an inline claim spec. */
public record VolumeSpec(String mountPath, String volumeClaimName, ObjectNode volumeClaim) {}
