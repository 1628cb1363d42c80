package io.lahar.bridge.webhook;

import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfigurationBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;

/**
 * The ValidatingWebhookConfiguration of the Jobs webhook, as Volcano's chart installs it: the same
 * names, rules (CREATE and UPDATE of {@code batch.volcano.sh/v1alpha1} jobs) and failure policy
 * ({@code Fail}: while the webhook cannot be called, no Job is created unchecked); the client
 * config is the bridge's URL and certificate instead of Volcano's admission service. Replaced at
 * each start, since the port and the certificate are new.
 */
public final class WebhookRegistration {

    public static final String NAME = "volcano-admission-service-jobs-validate";
    public static final String WEBHOOK = "validatejob.volcano.sh";
    static final int TIMEOUT_SECONDS = 10;

    private WebhookRegistration() {}

    public static ValidatingWebhookConfiguration jobs(String url, String caBundle) {
        return new ValidatingWebhookConfigurationBuilder()
                .withNewMetadata()
                .withName(NAME)
                .addToLabels("app.kubernetes.io/managed-by", "lahar")
                .endMetadata()
                .addNewWebhook()
                .withName(WEBHOOK)
                .withAdmissionReviewVersions("v1")
                .withNewClientConfig()
                .withUrl(url)
                .withCaBundle(caBundle)
                .endClientConfig()
                .withFailurePolicy("Fail")
                .withMatchPolicy("Equivalent")
                .withSideEffects("None")
                .withTimeoutSeconds(TIMEOUT_SECONDS)
                .addNewRule()
                .withApiGroups("batch.volcano.sh")
                .withApiVersions("v1alpha1")
                .withOperations("CREATE", "UPDATE")
                .withResources("jobs")
                .withScope("*")
                .endRule()
                .endWebhook()
                .build();
    }

    public static void register(KubernetesClient client, AdmissionWebhook webhook) {
        client.admissionRegistration()
                .v1()
                .validatingWebhookConfigurations()
                .resource(jobs(webhook.url(), webhook.caBundle()))
                .createOr(NonDeletingOperation::update);
    }
}
