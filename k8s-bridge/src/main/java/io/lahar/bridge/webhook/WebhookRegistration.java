package io.lahar.bridge.webhook;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfigurationBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.RuleWithOperations;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.RuleWithOperationsBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfigurationBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.WebhookClientConfig;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.WebhookClientConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.lahar.bridge.mapping.BridgeLabels;
import java.util.List;

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
                .withMetadata(metadata(kind.configuration()))
                .addNewWebhook()
                .withName(kind.webhook())
                .withAdmissionReviewVersions("v1")
                .withClientConfig(clientConfig(url, caBundle))
                .withFailurePolicy("Fail")
                .withMatchPolicy("Equivalent")
                .withNamespaceSelector(notExempt())
                .withNewObjectSelector()
                .endObjectSelector()
                .withSideEffects("None")
                .withTimeoutSeconds(TIMEOUT_SECONDS)
                .withRules(rule(kind.resource(), kind.operations()))
                .endWebhook()
                .build();
    }

    public static MutatingWebhookConfiguration configuration(MutatedKind kind, String url, String caBundle) {
        return new MutatingWebhookConfigurationBuilder()
                .withMetadata(metadata(kind.configuration()))
                .addNewWebhook()
                .withName(kind.webhook())
                .withAdmissionReviewVersions("v1")
                .withClientConfig(clientConfig(url, caBundle))
                .withFailurePolicy("Fail")
                .withMatchPolicy("Equivalent")
                .withNamespaceSelector(notExempt())
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
                .withRules(rule(kind.resource(), kind.operations()))
                .endWebhook()
                .build();
    }

    private static ObjectMeta metadata(String name) {
        return new ObjectMetaBuilder()
                .withName(name)
                .addToLabels(BridgeLabels.MANAGED_BY, BridgeLabels.MANAGER)
                .build();
    }

    private static WebhookClientConfig clientConfig(String url, String caBundle) {
        return new WebhookClientConfigBuilder()
                .withUrl(url)
                .withCaBundle(caBundle)
                .build();
    }

    /** Every namespace but the ones Volcano's chart exempts. */
    private static LabelSelector notExempt() {
        return new LabelSelectorBuilder()
                .addNewMatchExpression()
                .withKey("kubernetes.io/metadata.name")
                .withOperator("NotIn")
                .withValues(EXEMPT_NAMESPACES)
                .endMatchExpression()
                .build();
    }

    private static RuleWithOperations rule(ResourceDefinitionContext resource, List<String> operations) {
        return new RuleWithOperationsBuilder()
                .withApiGroups(resource.getGroup())
                .withApiVersions(resource.getVersion())
                .withOperations(operations)
                .withResources(resource.getPlural())
                .withScope("*")
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
