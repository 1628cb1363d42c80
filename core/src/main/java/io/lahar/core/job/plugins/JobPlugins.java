package io.lahar.core.job.plugins;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The plugins a job names in {@code spec.plugins}, built with their arguments, in a fixed order
 * (env, svc, ssh, mpi) so that the pods they edit come out the same on every replay. Names
 * Lahar does not implement are skipped; admission decides which names a job may use.
 */
public final class JobPlugins {

    private static final List<String> ORDER = List.of(EnvPlugin.NAME, SvcPlugin.NAME, SshPlugin.NAME, MpiPlugin.NAME);

    private JobPlugins() {
    }

    public static List<JobPlugin> of(Map<String, List<String>> plugins) {
        List<JobPlugin> out = new ArrayList<>();
        if (plugins == null) {
            return out;
        }
        for (String name : ORDER) {
            if (!plugins.containsKey(name)) {
                continue;
            }
            List<String> args = plugins.get(name) == null ? List.of() : plugins.get(name);
            out.add(switch (name) {
                case EnvPlugin.NAME -> new EnvPlugin();
                case SvcPlugin.NAME -> new SvcPlugin(args);
                case SshPlugin.NAME -> new SshPlugin(args);
                default -> new MpiPlugin(args);
            });
        }
        return out;
    }
}
