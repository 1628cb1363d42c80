package io.lahar.core.scheduling.framework;

import java.util.List;

/**
 * A tier of plugins. Orderings ask tiers in turn until one decides; victim selection takes the first
 * tier whose plugins give an answer (intersecting the plugins of that tier).
 */
public record Tier(List<PluginOption> plugins) {
    public Tier {
        plugins = plugins == null ? List.of() : List.copyOf(plugins);
    }

    public static Tier of(String... names) {
        return new Tier(java.util.Arrays.stream(names).map(PluginOption::of).toList());
    }
}
