package io.lahar.core.job;

import io.lahar.core.api.Job;
import io.lahar.core.api.VolumeSpec;
import io.lahar.core.job.plugins.ObjectKind;
import java.util.List;
import java.util.Map;

/**
 * The claims a job makes for its inline volumes (Volcano's createOrUpdatePVC): one per volume that
 * gives a {@code volumeClaim} rather than the name of an existing claim, made once and remembered in
 * the status's controlledResources, and deleted with the job (Volcano makes the job their owner, so
 * Kubernetes' garbage collector takes them; a job submitted over Kafka has no object to own them).
 */
final class VolumeClaims {

    /** Volcano's controlledResources key of a claim the job made for an inline volume. */
    private static final String CLAIM_RESOURCE = "volume-pvc-";

    private VolumeClaims() {}

    /** Asks for the claims the job's inline volumes need and it does not control yet. */
    static void create(Job job, RunStatus status, List<WorldAction> actions) {
        List<VolumeSpec> volumes = job.spec().volumesOrEmpty();
        for (int i = 0; i < volumes.size(); i++) {
            VolumeSpec v = volumes.get(i);
            String claim = JobPods.claimName(job, i);
            if ((v.volumeClaimName() == null || v.volumeClaimName().isEmpty())
                    && v.volumeClaim() != null
                    && !status.controlledResources().containsKey(CLAIM_RESOURCE + claim)) {
                actions.add(new WorldAction.CreatePersistentVolumeClaim(
                        claim, v.volumeClaim().deepCopy()));
                status.controlResource(CLAIM_RESOURCE + claim, claim);
            }
        }
    }

    /** Asks for the deletion of every claim the job made; a claim it was only given stays. */
    static void delete(RunStatus status, List<WorldAction> actions) {
        for (Map.Entry<String, String> e : status.controlledResources().entrySet()) {
            if (e.getKey().startsWith(CLAIM_RESOURCE)) {
                actions.add(new WorldAction.DeleteObject(ObjectKind.PERSISTENT_VOLUME_CLAIM.kind(), e.getValue()));
            }
        }
    }
}
