package io.lahar.core.job.plugins;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lahar.core.api.Job;
import io.lahar.core.api.TaskSpec;
import io.lahar.core.job.WorldAction;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * ssh: password-less ssh between the job's pods (what mpirun needs). A Secret {@code <job>-ssh}
 * holds a key pair, authorized_keys and an ssh config naming every host; every container
 * mounts it at the key path. The key pair is generated outside the core, which must stay
 * deterministic: the engine asks for it with {@link WorldAction.RequestSshSecret}, unless the
 * user gave the keys. Arguments: {@code --ssh-key-file-path} (default /root/.ssh),
 * {@code --ssh-private-key}, {@code --ssh-public-key}.
 */
public final class SshPlugin implements JobPlugin {

    public static final String NAME = "ssh";
    public static final String PRIVATE_KEY = "id_rsa";
    public static final String PUBLIC_KEY = "id_rsa.pub";
    public static final String AUTHORIZED_KEYS = "authorized_keys";
    public static final String CONFIG = "config";
    public static final String DEFAULT_PATH = "/root/.ssh";
    public static final String RELATIVE_PATH = ".ssh";
    /** 0600: keys readable by their owner only, or ssh refuses them. */
    public static final int KEY_MODE = 0600;

    public static final JobPluginType TYPE = new JobPluginType(NAME, Set.of(ObjectKind.SECRET), SshPlugin::new);

    private final String keyPath;
    private final String privateKey;
    private final String publicKey;

    private final int port;
    private final GoFlags flags;

    public SshPlugin(List<String> args) {
        flags = new GoFlags()
                .string("ssh-key-file-path", DEFAULT_PATH)
                .string("ssh-private-key", "")
                .string("ssh-public-key", "")
                .integer("ssh-port", 22)
                .parse(args);
        this.keyPath = flags.string("ssh-key-file-path");
        this.privateKey = flags.string("ssh-private-key");
        this.publicKey = flags.string("ssh-public-key");
        this.port = flags.integer("ssh-port");
    }

    /**
     * Volcano falls back to port 22 with a warning for a port out of range, and uses a private key
     * given without its public key as it comes; both are rejected here, where the user sees why.
     */
    @Override
    public List<String> validate(io.lahar.core.api.JobSpec spec) {
        List<String> out = flags.problems("ssh-port");
        if (privateKey.isEmpty() != publicKey.isEmpty()) {
            out.add("--ssh-private-key and --ssh-public-key: give both or neither (neither: a key pair is generated)");
        }
        return out;
    }

    @Override
    public String name() {
        return NAME;
    }

    public String keyPath() {
        return keyPath;
    }

    public static String secretName(Job job) {
        return job.name() + "-" + NAME;
    }

    /** Volcano's generateSSHConfig: no host key checks, and one Host entry per replica on the ssh port. */
    public String sshConfig(Job job) {
        StringBuilder b = new StringBuilder("StrictHostKeyChecking no\nUserKnownHostsFile /dev/null\n");
        for (TaskSpec t : job.spec().tasksOrEmpty()) {
            for (int i = 0; i < t.replicasOrZero(); i++) {
                String host = Pods.host(job, t, i);
                String name = host.substring(0, host.indexOf('.'));
                b.append("Host ").append(name).append('\n');
                b.append("  HostName ").append(host).append('\n');
                b.append("  Port ").append(port).append('\n');
                if (Pods.fixedHostname(t)) {
                    break;
                }
            }
        }
        return b.toString();
    }

    @Override
    public List<WorldAction> onJobAdd(Job job) {
        Map<String, String> data = new TreeMap<>();
        data.put(CONFIG, sshConfig(job));
        if (!privateKey.isEmpty()) {
            data.put(PRIVATE_KEY, privateKey);
            data.put(PUBLIC_KEY, publicKey);
            data.put(AUTHORIZED_KEYS, publicKey);
            return List.of(new WorldAction.RequestSshSecret(secretName(job), data, List.of()));
        }
        return List.of(new WorldAction.RequestSshSecret(
                secretName(job), data, List.of(PRIVATE_KEY, PUBLIC_KEY, AUTHORIZED_KEYS)));
    }

    @Override
    public List<WorldAction> onJobDelete(Job job) {
        return List.of(new WorldAction.DeleteObject(ObjectKind.SECRET.kind(), secretName(job)));
    }

    @Override
    public void onPodCreate(ObjectNode pod, Job job, String task, int index) {
        String secret = secretName(job);
        ObjectNode volume = Pods.array(Pods.spec(pod), "volumes").addObject();
        volume.put("name", secret);
        ObjectNode src = volume.putObject("secret");
        src.put("secretName", secret);
        ArrayNode items = src.putArray("items");
        for (String key : new String[] {PRIVATE_KEY, PUBLIC_KEY, AUTHORIZED_KEYS, CONFIG}) {
            ObjectNode item = items.addObject();
            item.put("key", key);
            item.put("path", RELATIVE_PATH + "/" + key);
        }
        src.put("defaultMode", KEY_MODE);
        Pods.eachContainer(pod, c -> {
            ObjectNode mount = Pods.array(c, "volumeMounts").addObject();
            mount.put("mountPath", keyPath);
            mount.put("subPath", RELATIVE_PATH);
            mount.put("name", secret);
        });
    }
}
