package io.lahar.core.api;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Overrides applied to the template's spec for one flow. Kept as a JSON tree: it is a partial
 * JobSpec, merged into the template (tasks matched by name, containers by name).
 */
public record Patch(ObjectNode spec) {}
