package io.lahar.core.scheduling;

import io.lahar.core.scheduling.api.NodeInfo;
import io.lahar.core.scheduling.framework.Extension;
import io.lahar.core.scheduling.framework.SchedulerConf;
import io.lahar.core.scheduling.framework.SessionResult;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** What the tables after Volcano's own test tables share: its uthelper's one tier, nodes, binds. */
public final class VolcanoTables {
    private VolcanoTables() {}

    /**
     * One tier of the named plugins with only the given switches on (Volcano's uthelper leaves the
     * others off), then {@code configurations} (YAML, may be empty).
     */
    public static SchedulerConf conf(String actions, Map<String, Set<Extension>> tier, String configurations) {
        return conf(actions, tier, Map.of(), configurations);
    }

    /** As above, with plugins' arguments (a YAML flow mapping per plugin, as {@code {ancestorReclaimLevel: 1}}). */
    public static SchedulerConf conf(
            String actions, Map<String, Set<Extension>> tier, Map<String, String> arguments, String configurations) {
        StringBuilder y = new StringBuilder("actions: \"" + actions + "\"\ntiers:\n- plugins:\n");
        tier.forEach((plugin, on) -> {
            y.append("  - name: ").append(plugin).append('\n');
            if (arguments.containsKey(plugin))
                y.append("    arguments: ").append(arguments.get(plugin)).append('\n');
            for (Extension e : Extension.values()) {
                y.append("    ")
                        .append(e.confKey())
                        .append(": ")
                        .append(on.contains(e))
                        .append('\n');
            }
        });
        return SchedulerConf.parse(y + configurations);
    }

    /** Volcano's util.BuildNode: cpu, memory and room for ten pods, with labels as key, value pairs. */
    public static NodeInfo node(String name, String cpu, String mem, String... labels) {
        NodeInfo.Builder b = NodeInfo.builder(name).allocatable(Map.of("cpu", cpu, "memory", mem, "pods", "10"));
        for (int i = 0; i + 1 < labels.length; i += 2) b.label(labels[i], labels[i + 1]);
        return b.build();
    }

    /** The bindings as Volcano's ExpectBindMap: namespace/pod to node. */
    public static Map<String, String> bound(SessionResult r) {
        Map<String, String> out = new TreeMap<>();
        for (SessionResult.Binding b : r.bindings())
            out.put(b.job().substring(0, b.job().indexOf('/')) + "/" + b.task(), b.node());
        return out;
    }
}
