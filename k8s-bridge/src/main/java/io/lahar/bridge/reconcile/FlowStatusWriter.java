package io.lahar.bridge.reconcile;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.lahar.bridge.mapping.Mirrors;
import io.lahar.bridge.mapping.VolcanoKinds;
import io.lahar.schema.JobFlowStatusRecord;
import io.lahar.schema.JobKey;
import io.lahar.schema.JobTemplate;

/**
 * Shows every Lahar JobFlow and JobTemplate as its flow.volcano.sh CR, so {@code kubectl get
 * jobflows,jobtemplates} lists them however they were submitted: the engine's JobFlow status
 * (lahar.flow-status) and template records (lahar.job-templates) onto the CRs, mirrored CRs for
 * those that have none (see {@link Mirrors}), and each CR deleted with its object (the tombstones).
 */
public final class FlowStatusWriter {

    private final CrMirror flows;
    private final CrMirror templates;

    public FlowStatusWriter(KubernetesClient client, Retry retry) {
        this(client, retry, new MirrorLedger());
    }

    public FlowStatusWriter(KubernetesClient client, Retry retry, MirrorLedger ledger) {
        this.flows = new CrMirror(client, retry, VolcanoKinds.JOB_FLOWS, ledger, CrMirror.StatusPolicy.ALWAYS);
        this.templates = new CrMirror(client, retry, VolcanoKinds.JOB_TEMPLATES, ledger, CrMirror.StatusPolicy.ALWAYS);
    }

    public synchronized CrMirror.Outcome apply(JobFlowStatusRecord record) {
        return flows.apply(Mirrors.flow(record));
    }

    /** The flow is deleted (its status tombstone, keyed namespace/name): so is its CR. */
    public synchronized CrMirror.Outcome deleted(String key) {
        JobKey id = JobStatusWriter.keyOf(key);
        return flows.delete(id.namespace(), id.name());
    }

    public synchronized CrMirror.Outcome apply(JobTemplate record) {
        return templates.apply(Mirrors.template(record));
    }

    /** The template is deleted (its tombstone on lahar.job-templates): so is its CR. */
    public synchronized CrMirror.Outcome templateDeleted(String key) {
        JobKey id = JobStatusWriter.keyOf(key);
        return templates.delete(id.namespace(), id.name());
    }
}
