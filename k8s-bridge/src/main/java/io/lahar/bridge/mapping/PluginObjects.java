package io.lahar.bridge.mapping;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimSpec;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.ServicePortBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyIngressRuleBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeer;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeerBuilder;
import io.lahar.schema.EnsureConfigMap;
import io.lahar.schema.EnsureNetworkPolicy;
import io.lahar.schema.EnsurePersistentVolumeClaim;
import io.lahar.schema.EnsureService;
import io.lahar.schema.EnsureSshSecret;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the job plugins ask for (svc: headless Service, host lists and NetworkPolicy; ssh: key
 * Secret) and the claims of a job's inline volumes, as Kubernetes objects.
 */
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
                .withMetadata(metadata(namespace, ensure.getName(), ensure.getLabels(), owner))
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
                .withMetadata(metadata(namespace, ensure.getName(), ensure.getLabels(), owner))
                .withData(new LinkedHashMap<>(ensure.getData()))
                .build();
    }

    /** The svc plugin's NetworkPolicy: the intent's pod selectors by their labels. */
    public static NetworkPolicy networkPolicy(
            String namespace, EnsureNetworkPolicy ensure, Optional<OwnerReference> owner) {
        List<NetworkPolicyPeer> from = ensure.getIngressFrom().stream()
                .map(labels -> new NetworkPolicyPeerBuilder()
                        .withPodSelector(selector(labels))
                        .build())
                .toList();
        return new NetworkPolicyBuilder()
                .withMetadata(metadata(namespace, ensure.getName(), ensure.getLabels(), owner))
                .withNewSpec()
                .withPodSelector(selector(ensure.getPodSelector()))
                .withIngress(
                        from.isEmpty()
                                ? List.of()
                                : List.of(new NetworkPolicyIngressRuleBuilder()
                                        .withFrom(from)
                                        .build()))
                .withPolicyTypes(List.copyOf(ensure.getPolicyTypes()))
                .endSpec()
                .build();
    }

    /**
     * The claim of an inline volume, its spec as the job gave it.
     *
     * @throws IllegalArgumentException when the spec is not a PersistentVolumeClaimSpec (it never
     *     will be: the record cannot be carried out)
     */
    public static PersistentVolumeClaim persistentVolumeClaim(
            String namespace, EnsurePersistentVolumeClaim ensure, Optional<OwnerReference> owner) {
        PersistentVolumeClaimSpec spec;
        try {
            spec = KubernetesJson.SERIALIZATION.unmarshal(ensure.getSpec(), PersistentVolumeClaimSpec.class);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(
                    "intent.spec: not a PersistentVolumeClaimSpec of claim " + ensure.getName() + ": " + e.getMessage(),
                    e);
        }
        return new PersistentVolumeClaimBuilder()
                .withMetadata(metadata(namespace, ensure.getName(), ensure.getLabels(), owner))
                .withSpec(spec)
                .build();
    }

    private static LabelSelector selector(Map<String, String> labels) {
        return new LabelSelectorBuilder()
                .withMatchLabels(new LinkedHashMap<>(labels))
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
                .withMetadata(metadata(namespace, ensure.getName(), ensure.getLabels(), owner))
                .withType("Opaque")
                .withData(data)
                .build();
    }

    /** Every object's metadata: its name, the intent's labels and Lahar's, the Job CR as owner when there is one. */
    private static ObjectMeta metadata(
            String namespace, String name, Map<String, String> labels, Optional<OwnerReference> owner) {
        return new ObjectMetaBuilder()
                .withName(name)
                .withNamespace(namespace)
                .withLabels(managed(labels))
                .withOwnerReferences(owner.stream().toList())
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
