package io.lahar.bridge.webhook;

import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.lahar.bridge.mapping.VolcanoKinds;
import java.util.List;

/**
 * The kinds the bridge's mutating webhooks patch, each registered as Volcano's chart registers its
 * webhook: the same path, configuration name, webhook name and operations.
 */
public enum MutatedKind {
    /** A PodGroup in the default queue goes to its namespace's queue ({@link PodGroupMutation}). */
    POD_GROUPS(
            "/podgroups/mutate",
            "volcano-admission-service-podgroups-mutate",
            "mutatepodgroup.volcano.sh",
            VolcanoKinds.POD_GROUPS,
            List.of("CREATE"));

    private final String path;
    private final String configuration;
    private final String webhook;
    private final ResourceDefinitionContext resource;
    private final List<String> operations;

    MutatedKind(
            String path,
            String configuration,
            String webhook,
            ResourceDefinitionContext resource,
            List<String> operations) {
        this.path = path;
        this.configuration = configuration;
        this.webhook = webhook;
        this.resource = resource;
        this.operations = operations;
    }

    /** Where the webhook is served: Volcano's path. */
    public String path() {
        return path;
    }

    /** The name of its MutatingWebhookConfiguration. */
    public String configuration() {
        return configuration;
    }

    /** The name of the webhook, the one kubectl quotes in a refusal. */
    public String webhook() {
        return webhook;
    }

    public ResourceDefinitionContext resource() {
        return resource;
    }

    /** The operations it is registered for. */
    public List<String> operations() {
        return operations;
    }
}
