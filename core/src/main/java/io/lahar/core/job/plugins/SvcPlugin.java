package io.lahar.core.job.plugins;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lahar.core.api.Job;
import io.lahar.core.api.TaskSpec;
import io.lahar.core.job.WorldAction;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * svc: pods find each other by name. A headless Service named after the job gives every pod
 * the address {@code <pod>.<job>}; a ConfigMap {@code <job>-svc} lists each task's hosts (file
 * {@code <task>.host} under /etc/volcano) and feeds VC_&lt;TASK&gt;_HOSTS and VC_&lt;TASK&gt;_NUM
 * to every container; a NetworkPolicy admits traffic from the job's own pods only.
 * Arguments: {@code --publish-not-ready-addresses}, {@code --disable-network-policy}.
 */
public final class SvcPlugin implements JobPlugin {

    public static final String NAME = "svc";
    public static final String MOUNT_PATH = "/etc/volcano";
    public static final JobPluginType TYPE = new JobPluginType(
            NAME, Set.of(ObjectKind.CONFIG_MAP, ObjectKind.SERVICE, ObjectKind.NETWORK_POLICY), SvcPlugin::new);

    private final boolean publishNotReadyAddresses;
    private final boolean disableNetworkPolicy;
    private final boolean injectHostsEnv;
    private final GoFlags flags;

    public SvcPlugin(List<String> args) {
        flags = new GoFlags()
                .bool("publish-not-ready-addresses", false)
                .bool("disable-network-policy", false)
                .bool("inject-hosts-env", true)
                .parse(args);
        this.publishNotReadyAddresses = flags.bool("publish-not-ready-addresses");
        this.disableNetworkPolicy = flags.bool("disable-network-policy");
        this.injectHostsEnv = flags.bool("inject-hosts-env");
    }

    @Override
    public List<String> validate(io.lahar.core.api.JobSpec spec) {
        return flags.problems();
    }

    @Override
    public String name() {
        return NAME;
    }

    public static String configMapName(Job job) {
        return job.name() + "-" + NAME;
    }

    /** The environment key of a task: its name upper-cased, '-' turned into '_'. */
    static String envKey(String task) {
        return task.replace('-', '_').toUpperCase(Locale.ROOT);
    }

    public static String hostsEnv(String task) {
        return "VC_" + envKey(task) + "_HOSTS";
    }

    public static String numEnv(String task) {
        return "VC_" + envKey(task) + "_NUM";
    }

    /** The ConfigMap's data: per task its hosts file, host list and host count (Volcano's GenerateHosts). */
    public static Map<String, String> hosts(Job job) {
        Map<String, String> data = new TreeMap<>();
        for (TaskSpec t : job.spec().tasksOrEmpty()) {
            List<String> hosts = new ArrayList<>();
            for (int i = 0; i < t.replicasOrZero(); i++) {
                hosts.add(Pods.host(job, t, i));
                if (Pods.fixedHostname(t)) {
                    break;
                }
            }
            data.put(t.name().replace('-', '_') + ".host", String.join("\n", hosts));
            data.put(hostsEnv(t.name()), String.join(",", hosts));
            data.put(numEnv(t.name()), Integer.toString(hosts.size()));
        }
        return data;
    }

    @Override
    public void onPodCreate(ObjectNode pod, Job job, String task, int index) {
        ObjectNode spec = Pods.spec(pod);
        if (Pods.text(spec.path("hostname")).isEmpty()) {
            spec.put("hostname", pod.path("metadata").path("name").asText());
        }
        if (Pods.text(spec.path("subdomain")).isEmpty()) {
            spec.put("subdomain", job.name());
        }
        String cm = configMapName(job);
        Pods.eachContainer(pod, c -> {
            // --inject-hosts-env=false leaves the hosts to the mounted files (a job with many tasks
            // would otherwise give every container two variables per task).
            for (TaskSpec t : injectHostsEnv ? job.spec().tasksOrEmpty() : List.<TaskSpec>of()) {
                Pods.addEnvFromConfigMap(c, hostsEnv(t.name()), cm, hostsEnv(t.name()));
                Pods.addEnvFromConfigMap(c, numEnv(t.name()), cm, numEnv(t.name()));
            }
            ObjectNode mount = Pods.array(c, "volumeMounts").addObject();
            mount.put("mountPath", MOUNT_PATH);
            mount.put("name", cm);
        });
        ObjectNode volume = Pods.array(spec, "volumes").addObject();
        volume.put("name", cm);
        volume.putObject("configMap").put("name", cm);
    }

    @Override
    public List<WorldAction> onJobAdd(Job job) {
        List<WorldAction> out = new ArrayList<>();
        out.add(new WorldAction.CreateConfigMap(configMapName(job), hosts(job)));
        out.add(new WorldAction.CreateObject(ObjectKind.SERVICE.kind(), job.name(), service(job)));
        if (!disableNetworkPolicy) {
            out.add(new WorldAction.CreateObject(ObjectKind.NETWORK_POLICY.kind(), job.name(), networkPolicy(job)));
        }
        return out;
    }

    @Override
    public List<WorldAction> onJobUpdate(Job job) {
        return List.of(new WorldAction.CreateConfigMap(configMapName(job), hosts(job)));
    }

    @Override
    public List<WorldAction> onJobDelete(Job job) {
        List<WorldAction> out = new ArrayList<>();
        out.add(new WorldAction.DeleteObject(ObjectKind.CONFIG_MAP.kind(), configMapName(job)));
        out.add(new WorldAction.DeleteObject(ObjectKind.SERVICE.kind(), job.name()));
        if (!disableNetworkPolicy) {
            out.add(new WorldAction.DeleteObject(ObjectKind.NETWORK_POLICY.kind(), job.name()));
        }
        return out;
    }

    private ObjectNode service(Job job) {
        ObjectNode svc = JsonNodeFactory.instance.objectNode();
        svc.put("apiVersion", ObjectKind.SERVICE.apiVersion());
        svc.put("kind", ObjectKind.SERVICE.kind());
        ObjectNode meta = svc.putObject("metadata");
        meta.put("name", job.name());
        meta.put("namespace", job.namespace());
        ObjectNode spec = svc.putObject("spec");
        spec.put("clusterIP", "None");
        spec.set("selector", jobSelector(job));
        spec.put("publishNotReadyAddresses", publishNotReadyAddresses);
        ObjectNode port = spec.putArray("ports").addObject();
        port.put("name", "placeholder-volcano");
        port.put("port", 1);
        port.put("protocol", "TCP");
        port.put("targetPort", 1);
        return svc;
    }

    private static ObjectNode networkPolicy(Job job) {
        ObjectNode np = JsonNodeFactory.instance.objectNode();
        np.put("apiVersion", ObjectKind.NETWORK_POLICY.apiVersion());
        np.put("kind", ObjectKind.NETWORK_POLICY.kind());
        ObjectNode meta = np.putObject("metadata");
        meta.put("name", job.name());
        meta.put("namespace", job.namespace());
        ObjectNode spec = np.putObject("spec");
        spec.putObject("podSelector").set("matchLabels", jobSelector(job));
        spec.putArray("ingress")
                .addObject()
                .putArray("from")
                .addObject()
                .putObject("podSelector")
                .set("matchLabels", jobSelector(job));
        spec.putArray("policyTypes").add("Ingress");
        return np;
    }

    private static ObjectNode jobSelector(Job job) {
        ObjectNode sel = JsonNodeFactory.instance.objectNode();
        sel.put(PodLabels.JOB_NAME, job.name());
        sel.put(PodLabels.JOB_NAMESPACE, job.namespace());
        return sel;
    }
}
