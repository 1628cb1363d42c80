package io.lahar.core.job.plugins;

import io.lahar.core.api.JobSpec;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The job plugins a job may name in {@code spec.plugins} (Volcano's plugins/factory.go), as the
 * scheduler's {@code PluginRegistry} holds its plugins. Admission accepts exactly the names
 * registered here and runs their argument checks, so no plugin is accepted that the controller
 * does not run. The controller builds a job's plugins in registration order, so a pod that several
 * plugins edit comes out the same on every replay. Immutable: {@link #with} gives a new registry.
 */
public final class JobPluginRegistry {

    private static final JobPluginRegistry DEFAULTS = new JobPluginRegistry(Map.of())
            .with(EnvPlugin.TYPE)
            .with(SvcPlugin.TYPE)
            .with(SshPlugin.TYPE)
            .with(MpiPlugin.TYPE)
            .with(TensorflowPlugin.TYPE)
            .with(PytorchPlugin.TYPE)
            .with(HcclRankPlugin.TYPE)
            .with(RayPlugin.TYPE);

    private final Map<String, JobPluginType> types;

    private JobPluginRegistry(Map<String, JobPluginType> types) {
        this.types = types;
    }

    /**
     * The built-in plugins: env, svc, ssh, mpi, tensorflow, pytorch, hcclrank, ray. Volcano runs a
     * job's plugins in Go's map order, which varies; here hcclrank comes after pytorch, so a pytorch
     * RANK is the HCCL rank.
     */
    public static JobPluginRegistry defaults() {
        return DEFAULTS;
    }

    /** This registry and {@code type} after its plugins. */
    public JobPluginRegistry with(JobPluginType type) {
        if (types.containsKey(type.name())) {
            throw new IllegalArgumentException("job plugin \"" + type.name() + "\" is registered already");
        }
        Map<String, JobPluginType> more = new LinkedHashMap<>(types);
        more.put(type.name(), type);
        return new JobPluginRegistry(Collections.unmodifiableMap(more));
    }

    /** The registered names, in registration order. */
    public Set<String> names() {
        return types.keySet();
    }

    /** The registered plugins, in registration order. */
    public List<JobPluginType> types() {
        return List.copyOf(types.values());
    }

    public boolean has(String name) {
        return types.containsKey(name);
    }

    /** Every kind of object the registered plugins create besides pods, ordered by kind. */
    public Set<ObjectKind> objectKinds() {
        Set<ObjectKind> out =
                new TreeSet<>(Comparator.comparing(ObjectKind::kind).thenComparing(ObjectKind::apiVersion));
        types.values().forEach(t -> out.addAll(t.objects()));
        return Collections.unmodifiableSet(out);
    }

    /**
     * The plugins {@code plugins} (a job's {@code spec.plugins}) names, built with their arguments,
     * in registration order. A name not registered cannot pass admission; one in a job admitted
     * before (say by an older version whose store is replayed) is skipped.
     */
    public List<JobPlugin> plugins(Map<String, List<String>> plugins) {
        List<JobPlugin> out = new ArrayList<>();
        if (plugins == null || plugins.isEmpty()) {
            return out;
        }
        for (JobPluginType t : types.values()) {
            if (plugins.containsKey(t.name())) {
                out.add(t.create(plugins.get(t.name())));
            }
        }
        return out;
    }

    /**
     * What is wrong with plugin {@code name}'s arguments for the job {@code spec}, each in words;
     * empty when nothing is, or when {@code name} is not registered (the caller reports that).
     */
    public List<String> validate(String name, List<String> args, JobSpec spec) {
        JobPluginType t = types.get(name);
        return t == null ? List.of() : t.create(args).validate(spec);
    }
}
