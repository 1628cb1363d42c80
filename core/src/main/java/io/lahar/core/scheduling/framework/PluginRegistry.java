package io.lahar.core.scheduling.framework;

import io.lahar.core.scheduling.actions.Allocate;
import io.lahar.core.scheduling.actions.Backfill;
import io.lahar.core.scheduling.actions.Enqueue;
import io.lahar.core.scheduling.actions.Preempt;
import io.lahar.core.scheduling.actions.Reclaim;
import io.lahar.core.scheduling.actions.Shuffle;
import io.lahar.core.scheduling.plugins.Binpack;
import io.lahar.core.scheduling.plugins.Capacity;
import io.lahar.core.scheduling.plugins.Cdp;
import io.lahar.core.scheduling.plugins.Conformance;
import io.lahar.core.scheduling.plugins.Drf;
import io.lahar.core.scheduling.plugins.Gang;
import io.lahar.core.scheduling.plugins.NodeOrder;
import io.lahar.core.scheduling.plugins.Overcommit;
import io.lahar.core.scheduling.plugins.Predicates;
import io.lahar.core.scheduling.plugins.Priority;
import io.lahar.core.scheduling.plugins.Proportion;
import io.lahar.core.scheduling.plugins.Sla;
import io.lahar.core.scheduling.plugins.Tdm;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Supplier;

/** The actions and plugins a configuration may name, as Volcano's plugin and action registries. */
public final class PluginRegistry {

    private final Map<String, Function<Arguments, Plugin>> plugins = new TreeMap<>();
    private final Map<String, Supplier<Action>> actions = new TreeMap<>();
    private final Set<String> hierarchical = new TreeSet<>();

    /** The built-in actions and plugins. */
    public static PluginRegistry defaults() {
        PluginRegistry r = new PluginRegistry();
        r.registerAction(Enqueue.NAME, Enqueue::new);
        r.registerAction(Allocate.NAME, Allocate::new);
        r.registerAction(Backfill.NAME, Backfill::new);
        r.registerAction(Preempt.NAME, Preempt::new);
        r.registerAction(Reclaim.NAME, Reclaim::new);
        r.registerAction(Shuffle.NAME, Shuffle::new);
        r.registerPlugin(Priority.NAME, Priority::new);
        r.registerPlugin(Gang.NAME, Gang::new);
        r.registerPlugin(Conformance.NAME, Conformance::new);
        r.registerPlugin(Overcommit.NAME, Overcommit::new);
        r.registerPlugin(Drf.NAME, Drf::new);
        r.registerPlugin(Predicates.NAME, Predicates::new);
        r.registerPlugin(Proportion.NAME, Proportion::new);
        r.registerPlugin(NodeOrder.NAME, NodeOrder::new);
        r.registerPlugin(Binpack.NAME, Binpack::new);
        r.registerPlugin(Sla.NAME, Sla::new);
        r.registerPlugin(Capacity.NAME, Capacity::new);
        r.registerPlugin(Cdp.NAME, Cdp::new);
        Tdm.LastEviction tdmLastEviction = new Tdm.LastEviction(); // shared by this registry's sessions
        r.registerPlugin(Tdm.NAME, args -> new Tdm(args, tdmLastEviction));
        r.hierarchical.add(Capacity.NAME);
        return r;
    }

    public PluginRegistry registerPlugin(String name, Function<Arguments, Plugin> factory) {
        plugins.put(name, factory);
        return this;
    }

    public PluginRegistry registerAction(String name, Supplier<Action> factory) {
        actions.put(name, factory);
        return this;
    }

    public boolean hasPlugin(String name) {
        return plugins.containsKey(name);
    }

    /** Whether the plugin carries out {@code enableHierarchy} (hierarchical queues). */
    public boolean supportsHierarchy(String name) {
        return hierarchical.contains(name);
    }

    public Set<String> hierarchicalNames() {
        return hierarchical;
    }

    public PluginRegistry registerHierarchical(String name) {
        hierarchical.add(name);
        return this;
    }

    public boolean hasAction(String name) {
        return actions.containsKey(name);
    }

    public Set<String> pluginNames() {
        return plugins.keySet();
    }

    public Set<String> actionNames() {
        return actions.keySet();
    }

    public Plugin newPlugin(PluginOption option) {
        Function<Arguments, Plugin> f = plugins.get(option.name());
        if (f == null) {
            throw new IllegalArgumentException("unknown plugin \"" + option.name() + "\"");
        }
        return f.apply(option.arguments());
    }

    public Action newAction(String name) {
        Supplier<Action> f = actions.get(name);
        if (f == null) {
            throw new IllegalArgumentException("unknown action \"" + name + "\"");
        }
        return f.get();
    }
}
