package io.lahar.bridge.webhook;

import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfigurationBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;

/**
 * The ValidatingWebhookConfigurations of the webhooks, as Volcano's chart installs them: one per
 * {@link ValidatedKind}, with the same names, rules, namespace selector (not in Volcano's own
 * namespace nor kube-system) and failure policy ({@code Fail}: while a webhook cannot be called,
 * nothing of its kind is written unchecked); the client config is the bridge's URL and
 * certificate instead of Volcano's admission service. Replaced at each start, since the port and
 * the certificate are new.
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
                .addToLabels("app.kubernetes.io/managed-by", "lahar")
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

    /** Registers every webhook {@code webhook} serves. */
    public static void register(KubernetesClient client, AdmissionWebhook webhook) {
        for (ValidatedKind kind : ValidatedKind.values()) {
            client.admissionRegistration()
                    .v1()
                    .validatingWebhookConfigurations()
                    .resource(configuration(kind, webhook.url(kind), webhook.caBundle()))
                    .createOr(NonDeletingOperation::update);
        }
    }
}
