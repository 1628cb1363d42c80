package io.lahar.bridge.mapping;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.ServicePortBuilder;
import io.lahar.schema.EnsureConfigMap;
import io.lahar.schema.EnsureService;
import io.lahar.schema.EnsureSshSecret;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** What the job plugins ask for (svc: headless Service and host lists; ssh: key Secret) as Kubernetes objects. */
public final class PluginObjects {

    /** The ssh plugin's file names, as Volcano's ssh plugin mounts them into ~/.ssh. */
    public static final String PRIVATE_KEY = "id_rsa";

    public static final String PUBLIC_KEY = "id_rsa.pub";
    public static final String AUTHORIZED_KEYS = "authorized_keys";

    private PluginObjects() {}

    /**
     * A plugin's Service: the svc plugin's is headless, clusterIP None with not-ready addresses
     * published (pods find each other before Ready); the ray plugin's head Service gets a cluster IP.
     */
    public static Service service(String namespace, EnsureService ensure, Optional<OwnerReference> owner) {
        boolean headless = ensure.getHeadless();
        return new ServiceBuilder()
                .withNewMetadata()
                .withName(ensure.getName())
                .withNamespace(namespace)
                .withLabels(managed(ensure.getLabels()))
                .withOwnerReferences(owner.stream().toList())
                .endMetadata()
                .withNewSpec()
                .withClusterIP(headless ? "None" : null)
                .withPublishNotReadyAddresses(headless ? true : null)
                .withSelector(new LinkedHashMap<>(ensure.getSelector()))
                .withPorts(ensure.getPorts().stream()
                        .map(p -> new ServicePortBuilder()
                                .withName(p.getName())
                                .withPort(p.getPort())
                                .withProtocol(p.getProtocol())
                                .withTargetPort(new IntOrString(p.getPort()))
                                .build())
                        .toList())
                .endSpec()
                .build();
    }

    public static ConfigMap configMap(String namespace, EnsureConfigMap ensure, Optional<OwnerReference> owner) {
        return new ConfigMapBuilder()
                .withNewMetadata()
                .withName(ensure.getName())
                .withNamespace(namespace)
                .withLabels(managed(ensure.getLabels()))
                .withOwnerReferences(owner.stream().toList())
                .endMetadata()
                .withData(new LinkedHashMap<>(ensure.getData()))
                .build();
    }

    /** The ssh Secret: the intent's non-secret entries plus a fresh key pair that never passes through Kafka. */
    public static Secret sshSecret(
            String namespace, EnsureSshSecret ensure, SshKeyPair keys, Optional<OwnerReference> owner) {
        Map<String, String> data = new LinkedHashMap<>();
        ensure.getData().forEach((k, v) -> data.put(k, base64(v)));
        data.put(PRIVATE_KEY, base64(keys.privateKeyPem()));
        data.put(PUBLIC_KEY, base64(keys.publicKey() + "\n"));
        data.put(AUTHORIZED_KEYS, base64(keys.publicKey() + "\n"));
        return new SecretBuilder()
                .withNewMetadata()
                .withName(ensure.getName())
                .withNamespace(namespace)
                .withLabels(managed(ensure.getLabels()))
                .withOwnerReferences(owner.stream().toList())
                .endMetadata()
                .withType("Opaque")
                .withData(data)
                .build();
    }

    private static Map<String, String> managed(Map<String, String> labels) {
        Map<String, String> out = new LinkedHashMap<>(labels);
        out.put(BridgeLabels.MANAGED_BY, BridgeLabels.MANAGER);
        return out;
    }

    private static String base64(String text) {
        return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }
}
