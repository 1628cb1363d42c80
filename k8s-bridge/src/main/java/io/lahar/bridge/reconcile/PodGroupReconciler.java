package io.lahar.bridge.reconcile;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.lahar.bridge.mapping.BridgeLabels;
import io.lahar.bridge.mapping.VolcanoCrs;
import io.lahar.bridge.mapping.VolcanoKinds;
import io.lahar.core.job.plugins.PodLabels;
import io.lahar.schema.PodGroup;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Keeps a PodGroup CR (scheduling.volcano.sh/v1beta1) per pod group record, spec and status, so
 * {@code kubectl get podgroups} shows what the engine and scheduler decided. A tombstone (the Job
 * is gone) deletes the job's PodGroup CRs, found by their job labels.
 */
public final class PodGroupReconciler {

    public enum Outcome {
        CREATED,
        UPDATED,
        UNCHANGED,
        DELETED,
        ABSENT
    }

    private final KubernetesClient client;
    private final Retry retry;
    private final JobOwners owners;

    public PodGroupReconciler(KubernetesClient client, Retry retry) {
        this.client = client;
        this.retry = retry;
        this.owners = new JobOwners(client, retry);
    }

    /** @param key namespace/job, the record's key; @param group null for a tombstone */
    public synchronized Outcome apply(String key, PodGroup group) {
        if (group == null) {
            return delete(key);
        }
        GenericKubernetesResource wanted =
                VolcanoCrs.podGroup(group, owners.owner(group.getNamespace(), group.getJob()));
        Map<String, String> labels = new LinkedHashMap<>(wanted.getMetadata().getLabels());
        labels.put(PodLabels.JOB_NAME, group.getJob());
        labels.put(PodLabels.JOB_NAMESPACE, group.getNamespace());
        wanted.getMetadata().setLabels(labels);
        var resource = client.genericKubernetesResources(VolcanoKinds.POD_GROUPS)
                .inNamespace(group.getNamespace())
                .withName(group.getName());
        for (int attempt = 0; attempt < 5; attempt++) {
            try {
                GenericKubernetesResource current = retry.call(resource::get);
                if (current == null) {
                    GenericKubernetesResource created =
                            retry.call(() -> client.genericKubernetesResources(VolcanoKinds.POD_GROUPS)
                                    .inNamespace(group.getNamespace())
                                    .resource(wanted)
                                    .create());
                    // A real apiserver drops status on create for a CRD with a status subresource.
                    writeStatus(created, wanted);
                    return Outcome.CREATED;
                }
                Object spec = wanted.getAdditionalProperties().get("spec");
                Object status = wanted.getAdditionalProperties().get("status");
                boolean specSame =
                        Objects.equals(current.getAdditionalProperties().get("spec"), spec);
                boolean statusSame =
                        Objects.equals(current.getAdditionalProperties().get("status"), status);
                if (specSame && statusSame) {
                    return Outcome.UNCHANGED;
                }
                GenericKubernetesResource latest = current;
                if (!specSame) {
                    current.setAdditionalProperty("spec", spec);
                    latest = retry.call(() -> client.genericKubernetesResources(VolcanoKinds.POD_GROUPS)
                            .inNamespace(group.getNamespace())
                            .resource(current)
                            .update());
                }
                if (!statusSame) {
                    writeStatus(latest, wanted);
                }
                return Outcome.UPDATED;
            } catch (KubernetesClientException e) {
                if (!Retry.isConflict(e)) {
                    throw e;
                }
            }
        }
        throw new KubernetesClientException("PodGroup " + key + ": still conflicting after 5 attempts");
    }

    private void writeStatus(GenericKubernetesResource current, GenericKubernetesResource wanted) {
        current.setAdditionalProperty("status", wanted.getAdditionalProperties().get("status"));
        retry.call(() -> client.genericKubernetesResources(VolcanoKinds.POD_GROUPS)
                .inNamespace(current.getMetadata().getNamespace())
                .resource(current)
                .updateStatus());
    }

    private Outcome delete(String key) {
        int slash = key.indexOf('/');
        if (slash < 0) {
            throw new IllegalArgumentException("key: \"" + key + "\" is not namespace/name");
        }
        String ns = key.substring(0, slash);
        String job = key.substring(slash + 1);
        var gone = retry.call(() -> client.genericKubernetesResources(VolcanoKinds.POD_GROUPS)
                .inNamespace(ns)
                .withLabel(PodLabels.JOB_NAME, job)
                .withLabel(BridgeLabels.MANAGED_BY, BridgeLabels.MANAGER)
                .delete());
        return gone.isEmpty() ? Outcome.ABSENT : Outcome.DELETED;
    }
}
