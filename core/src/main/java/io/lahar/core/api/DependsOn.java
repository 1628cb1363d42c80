package io.lahar.core.api;

import java.util.List;

/** What a flow waits for: target flows (all or any of them), and optional probes. */
public record DependsOn(List<String> targets, Probe probe, String strategy) {

    public static final String ALL = "all";
    public static final String ANY = "any";

    public List<String> targetsOrEmpty() {
        return targets == null ? List.of() : targets;
    }
}
