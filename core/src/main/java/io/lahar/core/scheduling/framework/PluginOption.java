package io.lahar.core.scheduling.framework;

import java.util.EnumMap;
import java.util.Map;

/**
 * One plugin entry of a tier: its name, its per-function switches (absent means enabled, as in
 * Volcano, except {@code enableHierarchy}) and its arguments.
 */
public record PluginOption(String name, Map<Extension, Boolean> switches, Arguments arguments) {

    public PluginOption {
        switches = switches == null || switches.isEmpty()
                ? Map.of()
                : java.util.Collections.unmodifiableMap(new EnumMap<>(switches));
        arguments = arguments == null ? Arguments.EMPTY : arguments;
    }

    public static PluginOption of(String name) {
        return new PluginOption(name, Map.of(), Arguments.EMPTY);
    }

    public boolean isEnabled(Extension e) {
        return switches.getOrDefault(e, e.onByDefault());
    }

    public PluginOption with(Extension e, boolean enabled) {
        Map<Extension, Boolean> m = new EnumMap<>(Extension.class);
        m.putAll(switches);
        m.put(e, enabled);
        return new PluginOption(name, m, arguments);
    }

    public PluginOption withArguments(Arguments a) {
        return new PluginOption(name, switches, a);
    }
}
