package io.lahar.core.job;

import io.lahar.core.api.Job;
import io.lahar.core.job.plugins.JobPlugin;
import io.lahar.core.job.plugins.JobPluginRegistry;
import io.lahar.core.job.plugins.ObjectKind;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The job plugins' hooks as the controller calls them (Volcano's job_controller_plugins): their
 * objects when the job is initiated, refreshed on a sync, released on a kill or deletion. Which
 * plugin owns its objects is in the status's controlled resources ({@code plugin-<name>}); a
 * plugin ConfigMap is sent only when its data changed, so the data last sent is kept with the job
 * (copied only when a run changes it).
 */
final class PluginCalls {

    private final JobPluginRegistry registry;
    private Map<String, Map<String, String>> configMaps;
    private boolean owned;

    PluginCalls(JobPluginRegistry registry, Map<String, Map<String, String>> stored) {
        this.registry = registry;
        this.configMaps = stored;
    }

    /** The plugin ConfigMaps' data as last sent, by name. */
    Map<String, Map<String, String>> configMaps() {
        return configMaps;
    }

    void clear() {
        own().clear();
    }

    /** The job's plugins, built with its arguments. */
    List<JobPlugin> of(Job job) {
        return registry.plugins(job.spec().plugins());
    }

    /** Volcano's pluginOnJobAdd: each plugin's objects unless it owns them already (a kill gives them back). */
    void onJobAdd(Job job, RunStatus status, List<WorldAction> actions) {
        for (JobPlugin p : of(job)) {
            String key = "plugin-" + p.name();
            if (p.name().equals(status.controlledResources().get(key))) {
                continue;
            }
            for (WorldAction a : p.onJobAdd(job)) {
                emit(a, actions);
            }
            status.controlResource(key, p.name());
        }
    }

    /** Volcano's pluginOnJobUpdate, sending a plugin's ConfigMap only when its data changed. */
    void onJobUpdate(Job job, List<WorldAction> actions) {
        for (JobPlugin p : of(job)) {
            for (WorldAction a : p.onJobUpdate(job)) {
                emit(a, actions);
            }
        }
    }

    /** Volcano's pluginOnJobDelete, run on every kill: plugins delete the objects they own. */
    void onJobDelete(Job job, RunStatus status, List<WorldAction> actions) {
        for (JobPlugin p : of(job)) {
            if (!status.controlledResources().containsKey("plugin-" + p.name())) {
                continue;
            }
            status.releaseResource("plugin-" + p.name());
            for (WorldAction a : p.onJobDelete(job)) {
                if (a instanceof WorldAction.DeleteObject d && d.kind().equals(ObjectKind.CONFIG_MAP.kind())) {
                    own().remove(d.name());
                }
                actions.add(a);
            }
        }
    }

    private void emit(WorldAction a, List<WorldAction> actions) {
        if (a instanceof WorldAction.CreateConfigMap cm) {
            if (cm.data().equals(configMaps.get(cm.name()))) {
                return;
            }
            own().put(cm.name(), new TreeMap<>(cm.data()));
        }
        actions.add(a);
    }

    private Map<String, Map<String, String>> own() {
        if (!owned) {
            configMaps = new TreeMap<>(configMaps);
            owned = true;
        }
        return configMaps;
    }
}
