package io.lahar.bridge.webhook;

import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfigurationBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfigurationBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.lahar.bridge.mapping.BridgeLabels;

/**
 * The Validating- and MutatingWebhookConfigurations of the webhooks, as Volcano's chart installs
 * them: one per {@link ValidatedKind} and {@link MutatedKind}, with the same names, rules, namespace
 * selector (not in Volcano's own namespace nor kube-system) and failure policy ({@code Fail}: while
 * a webhook cannot be called, nothing of its kind is written unchecked); the client config is the
 * bridge's URL and certificate instead of Volcano's admission service. Replaced at each start,
 * since the port and the certificate are new.
 *
 * <p>The mutating one's object selector leaves out what the bridge itself labels as its own (the
 * chart's selects everything): the webhook would leave those groups unpatched anyway, and so the
 * PodGroups of Lahar Jobs are written without a call out, even while the webhook is down.
 */
public final class WebhookRegistration {

    static final int TIMEOUT_SECONDS = 10;
    /** The namespaces Volcano's chart exempts: its release namespace (the default one) and kube-system. */
    static final String[] EXEMPT_NAMESPACES = {"volcano-system", "kube-system"};

    private WebhookRegistration() {}

    public static ValidatingWebhookConfiguration configuration(ValidatedKind kind, String url, String caBundle) {
        return new ValidatingWebhookConfigurationBuilder()
                .withNewMetadata()
                .withName(kind.configuration())
                .addToLabels(BridgeLabels.MANAGED_BY, BridgeLabels.MANAGER)
                .endMetadata()
                .addNewWebhook()
                .withName(kind.webhook())
                .withAdmissionReviewVersions("v1")
                .withNewClientConfig()
                .withUrl(url)
                .withCaBundle(caBundle)
                .endClientConfig()
                .withFailurePolicy("Fail")
                .withMatchPolicy("Equivalent")
                .withNewNamespaceSelector()
                .addNewMatchExpression()
                .withKey("kubernetes.io/metadata.name")
                .withOperator("NotIn")
                .withValues(EXEMPT_NAMESPACES)
                .endMatchExpression()
                .endNamespaceSelector()
                .withNewObjectSelector()
                .endObjectSelector()
                .withSideEffects("None")
                .withTimeoutSeconds(TIMEOUT_SECONDS)
                .addNewRule()
                .withApiGroups(kind.resource().getGroup())
                .withApiVersions(kind.resource().getVersion())
                .withOperations(kind.operations())
                .withResources(kind.resource().getPlural())
                .withScope("*")
                .endRule()
                .endWebhook()
                .build();
    }

    public static MutatingWebhookConfiguration configuration(MutatedKind kind, String url, String caBundle) {
        return new MutatingWebhookConfigurationBuilder()
                .withNewMetadata()
                .withName(kind.configuration())
                .addToLabels(BridgeLabels.MANAGED_BY, BridgeLabels.MANAGER)
                .endMetadata()
                .addNewWebhook()
                .withName(kind.webhook())
                .withAdmissionReviewVersions("v1")
                .withNewClientConfig()
                .withUrl(url)
                .withCaBundle(caBundle)
                .endClientConfig()
                .withFailurePolicy("Fail")
                .withMatchPolicy("Equivalent")
                .withNewNamespaceSelector()
                .addNewMatchExpression()
                .withKey("kubernetes.io/metadata.name")
                .withOperator("NotIn")
                .withValues(EXEMPT_NAMESPACES)
                .endMatchExpression()
                .endNamespaceSelector()
                .withNewObjectSelector()
                .addNewMatchExpression()
                .withKey(BridgeLabels.MANAGED_BY)
                .withOperator("NotIn")
                .withValues(BridgeLabels.MANAGER)
                .endMatchExpression()
                .endObjectSelector()
                .withReinvocationPolicy("Never")
                .withSideEffects("NoneOnDryRun")
                .withTimeoutSeconds(TIMEOUT_SECONDS)
                .addNewRule()
                .withApiGroups(kind.resource().getGroup())
                .withApiVersions(kind.resource().getVersion())
                .withOperations(kind.operations())
                .withResources(kind.resource().getPlural())
                .withScope("*")
                .endRule()
                .endWebhook()
                .build();
    }

    /** Registers every webhook {@code webhook} serves. */
    public static void register(KubernetesClient client, AdmissionWebhook webhook) {
        for (ValidatedKind kind : ValidatedKind.values()) {
            client.admissionRegistration()
                    .v1()
                    .validatingWebhookConfigurations()
                    .resource(configuration(kind, webhook.url(kind), webhook.caBundle()))
                    .createOr(NonDeletingOperation::update);
        }
        for (MutatedKind kind : MutatedKind.values()) {
            client.admissionRegistration()
                    .v1()
                    .mutatingWebhookConfigurations()
                    .resource(configuration(kind, webhook.url(kind), webhook.caBundle()))
                    .createOr(NonDeletingOperation::update);
        }
    }
}
