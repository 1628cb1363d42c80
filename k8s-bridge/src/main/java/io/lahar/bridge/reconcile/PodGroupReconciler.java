package io.lahar.bridge.reconcile;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.lahar.bridge.mapping.BridgeLabels;
import io.lahar.bridge.mapping.VolcanoCrs;
import io.lahar.bridge.mapping.VolcanoKinds;
import io.lahar.core.job.plugins.PodLabels;
import io.lahar.schema.JobKey;
import io.lahar.schema.PodGroup;
import io.lahar.schema.WorkloadKeys;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Keeps a PodGroup CR (scheduling.volcano.sh/v1beta1) per pod group record, spec and status, so
 * {@code kubectl get podgroups} shows what the engine and scheduler decided. The engine forgets a
 * gang once its pods are killed (the job finished, or restarts and queues afresh), but Volcano's
 * PodGroup stays while its Job exists: a tombstone keeps the CR while the Job's CR is there, with
 * its final phase (a gang that ran is Completed, Volcano's rule when all its scheduled pods are
 * done); the Job's deletion deletes them, found by their job labels.
 */
public final class PodGroupReconciler {

    public enum Outcome {
        CREATED,
        UPDATED,
        /** Nothing to change: the same record again, or a tombstone whose gang keeps its phase (it never ran). */
        UNCHANGED,
        DELETED,
        ABSENT
    }

    /** Phases of a gang that was scheduled. */
    private static final java.util.Set<String> RAN = java.util.Set.of("Running", "Unknown");

    private final KubernetesClient client;
    private final Retry retry;
    private final JobOwners owners;
    /** Lock stripes by job key: far more than the lanes' records at once. */
    private final Object[] locks = new Object[256];

    public PodGroupReconciler(KubernetesClient client, Retry retry) {
        this.client = client;
        this.retry = retry;
        this.owners = new JobOwners(client, retry);
        java.util.Arrays.setAll(locks, i -> new Object());
    }

    /** @param key namespace/job, the record's key; @param group null for a tombstone */
    public Outcome apply(String key, PodGroup group) {
        if (WorkloadKeys.isGroupKey(key)) {
            // Another workload's group: the bridge wrote the record from its CR, which stays its operator's.
            return Outcome.UNCHANGED;
        }
        synchronized (lockOf(key)) {
            return reconcile(key, group);
        }
    }

    /**
     * One job's records and its deletion come from different lanes: they take the job's lock, so a
     * record read before the deletion never writes after it. Other jobs' calls go on meanwhile
     * (those that share its stripe wait).
     */
    private Object lockOf(String key) {
        return locks[Math.floorMod(key.hashCode(), locks.length)];
    }

    private Outcome reconcile(String key, PodGroup group) {
        if (group == null) {
            return released(key);
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

    /** The engine forgot the gang: kept, with its final phase, while the Job's CR exists; else deleted. */
    private Outcome released(String key) {
        JobKey id = JobStatusWriter.keyOf(key);
        if (owners.owner(id.namespace(), id.name()).isEmpty()) {
            return jobDeleted(key);
        }
        Outcome outcome = Outcome.UNCHANGED;
        for (GenericKubernetesResource group : groups(id).list().getItems()) {
            if (finish(group)) {
                outcome = Outcome.UPDATED;
            }
        }
        return outcome;
    }

    /** Volcano's PodGroupCompleted: a gang that was scheduled and whose pods are all done; one that never ran keeps its phase. */
    private boolean finish(GenericKubernetesResource group) {
        if (!(group.getAdditionalProperties().get("status") instanceof Map<?, ?> status)
                || !RAN.contains(String.valueOf(status.get("phase")))) {
            return false;
        }
        Map<String, Object> finished = new LinkedHashMap<>();
        status.forEach((k, v) -> finished.put(String.valueOf(k), v));
        finished.put("phase", "Completed");
        // The gang is forgotten once its pods are killed or done: none of them runs any more.
        finished.put("running", 0);
        group.setAdditionalProperty("status", finished);
        try {
            retry.call(() -> client.genericKubernetesResources(VolcanoKinds.POD_GROUPS)
                    .inNamespace(group.getMetadata().getNamespace())
                    .resource(group)
                    .updateStatus());
            return true;
        } catch (KubernetesClientException e) {
            // Gone meanwhile, or changed by a newer record of the gang: nothing to finish.
            if (Retry.isNotFound(e) || Retry.isConflict(e)) {
                return false;
            }
            throw e;
        }
    }

    /** The Job is deleted (its status tombstone): its PodGroup CRs go with it. */
    public Outcome jobDeleted(String key) {
        synchronized (lockOf(key)) {
            JobKey id = JobStatusWriter.keyOf(key);
            var gone = retry.call(() -> groups(id).delete());
            return gone.isEmpty() ? Outcome.ABSENT : Outcome.DELETED;
        }
    }

    private io.fabric8.kubernetes.client.dsl.FilterWatchListDeletable<
                    GenericKubernetesResource,
                    io.fabric8.kubernetes.api.model.GenericKubernetesResourceList,
                    io.fabric8.kubernetes.client.dsl.Resource<GenericKubernetesResource>>
            groups(JobKey id) {
        return client.genericKubernetesResources(VolcanoKinds.POD_GROUPS)
                .inNamespace(id.namespace())
                .withLabel(PodLabels.JOB_NAME, id.name())
                .withLabel(BridgeLabels.MANAGED_BY, BridgeLabels.MANAGER);
    }
}
