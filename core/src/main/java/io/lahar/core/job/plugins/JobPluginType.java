package io.lahar.core.job.plugins;

import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * What a job plugin registers with (Volcano's RegisterPluginBuilder): the name a job gives it in
 * {@code spec.plugins}, the kinds of Kubernetes object it creates besides pods, and how it is built
 * from its arguments. Parsing the arguments is the plugin's constructor; checking them against the
 * job is its {@link JobPlugin#validate}, which admission runs.
 *
 * @param objects every kind the plugin's {@link JobPlugin#onJobAdd}, {@link JobPlugin#onJobUpdate} and
 *                {@link JobPlugin#onJobDelete} may name
 * @param factory the plugin for one job's arguments (never null; a flag that is not given takes its default)
 */
public record JobPluginType(String name, Set<ObjectKind> objects, Function<List<String>, JobPlugin> factory) {

    public JobPluginType {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("name: required");
        }
        objects = Set.copyOf(objects);
        if (factory == null) {
            throw new IllegalArgumentException("factory: required");
        }
    }

    /** The plugin for {@code args}, null meaning none. */
    public JobPlugin create(List<String> args) {
        return factory.apply(args == null ? List.of() : args);
    }
}
