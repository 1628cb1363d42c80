package io.lahar.bridge.reconcile;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.lahar.bridge.mapping.CommandEvents;
import io.lahar.schema.CommandResult;
import java.util.Optional;

/**
 * Reports the engine's answers to commands from Volcano CRs as Events on the CR (see {@link
 * CommandEvents}), and its rejections of commands from anywhere else (Kafka, REST, the CLI) too, on
 * the CR of that name when there is one: {@code kubectl get events} shows every refusal.
 */
public final class CommandResultReporter {

    public enum Outcome {
        REPORTED,
        ALREADY_REPORTED,
        NOT_OURS
    }

    private final KubernetesClient client;
    private final Retry retry;

    public CommandResultReporter(KubernetesClient client, Retry retry) {
        this.client = client;
        this.retry = retry;
    }

    public Outcome apply(CommandResult result) {
        if (!CommandEvents.fromCr(result) && result.getAccepted()) {
            return Outcome.NOT_OURS;
        }
        Optional<String> uid;
        try {
            GenericKubernetesResource cr =
                    retry.call(() -> client.genericKubernetesResources(CommandEvents.Target.of(result).kind)
                            .inNamespace(result.getNamespace())
                            .withName(result.getName())
                            .get());
            uid = cr == null
                    ? Optional.empty()
                    : Optional.ofNullable(cr.getMetadata().getUid());
        } catch (KubernetesClientException e) {
            if (!Retry.isNotFound(e)) {
                throw e;
            }
            uid = Optional.empty();
        }
        var event = CommandEvents.event(result, uid);
        return KubeEvents.createOnce(client, retry, event) ? Outcome.REPORTED : Outcome.ALREADY_REPORTED;
    }
}
