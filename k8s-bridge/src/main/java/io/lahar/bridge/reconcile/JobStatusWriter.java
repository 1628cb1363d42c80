package io.lahar.bridge.reconcile;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.lahar.bridge.mapping.JobEvents;
import io.lahar.bridge.mapping.Mirrors;
import io.lahar.bridge.mapping.VolcanoCrs;
import io.lahar.bridge.mapping.VolcanoKinds;
import io.lahar.schema.JobKey;
import io.lahar.schema.JobStatusRecord;
import java.util.ArrayList;
import java.util.List;

/**
 * Shows every Lahar job as its Volcano Job CR, so {@code kubectl get vcjob} lists the jobs however
 * they were submitted: the engine's job status onto the CR's status subresource, a mirrored CR for
 * a job that has none (see {@link Mirrors}), the CR deleted with the job (its status tombstone),
 * and each important transition as an Event on the CR ({@link JobEvents}).
 * <p>
 * The status records of one job, read while a write of its CR is under way, are folded into one
 * {@link Change} (decision 049): the latest status is written, the transitions of the ones in
 * between still become their Events, and a deletion cancels the statuses before it. Calls for one
 * job are never concurrent (the caller writes one change of a job at a time); different jobs'
 * calls are.
 */
public final class JobStatusWriter {

    /**
     * Transitions kept between two writes of one job: far more than a job makes in the time of a
     * write; past it the oldest go (their Events are lost, the status is not).
     */
    static final int TRANSITIONS_LIMIT = 64;

    private final KubernetesClient client;
    private final Retry retry;
    private final CrMirror mirror;

    public JobStatusWriter(KubernetesClient client, Retry retry) {
        this(client, retry, new MirrorLedger());
    }

    public JobStatusWriter(KubernetesClient client, Retry retry, MirrorLedger ledger) {
        this.client = client;
        this.retry = retry;
        this.mirror = new CrMirror(client, retry, VolcanoKinds.JOBS, ledger, CrMirror.StatusPolicy.ALWAYS);
    }

    /**
     * What one or more records of a job ask of its CR: deleting it first (a tombstone among them),
     * then the latest status ({@code last}, null if none came after the deletion), with the
     * transitions of the statuses before it that are not in the latest one.
     *
     * @param first the first status after the deletion (or of all), whose transition is from the CR's status
     * @param transitions each later status that makes an Event, with the status before it
     */
    public record Change(
            boolean deletes,
            JobStatusRecord first,
            List<Transition> transitions,
            JobStatusRecord last,
            GenericKubernetesResource wanted) {

        /** A job's status record, mapped (a record that cannot be shown fails here, before it is folded). */
        public static Change of(JobStatusRecord record) {
            return new Change(false, record, List.of(), record, Mirrors.job(record));
        }

        /** The job's status tombstone. */
        public static Change deletion() {
            return new Change(true, null, List.of(), null, null);
        }

        /** This change, then {@code later}: the cluster ends as if both had been written in turn. */
        public Change then(Change later) {
            if (later.deletes || first == null) {
                // A deletion cancels the statuses before it; after a bare deletion, the later statuses follow it.
                return new Change(deletes || later.deletes, later.first, later.transitions, later.last, later.wanted);
            }
            if (later.first == null) {
                return this;
            }
            List<Transition> joined = new ArrayList<>(transitions);
            Transition between = new Transition(later.first, VolcanoCrs.jobStatus(last));
            if (between.eventful()) {
                joined.add(between);
            }
            joined.addAll(later.transitions);
            while (joined.size() > TRANSITIONS_LIMIT) {
                joined.removeFirst();
            }
            return new Change(deletes, first, List.copyOf(joined), later.last, later.wanted);
        }
    }

    /** A status and the one before it, whose difference is an Event. */
    public record Transition(JobStatusRecord record, Object before) {
        boolean eventful() {
            return JobEvents.transition(record, before, "").isPresent();
        }
    }

    public CrMirror.Outcome apply(JobStatusRecord record) {
        return write(Change.of(record));
    }

    /** The job is deleted (its status tombstone, keyed namespace/name): so is its CR. */
    public CrMirror.Outcome deleted(String key) {
        JobKey id = keyOf(key);
        return mirror.delete(id.namespace(), id.name());
    }

    /**
     * Writes a (folded) change of the job keyed {@code key}; the outcome is the last write's. Every
     * Event is created before the status that shows it, so a retry after a failure loses none.
     */
    public CrMirror.Outcome write(String key, Change change) {
        CrMirror.Outcome outcome = CrMirror.Outcome.UNCHANGED;
        if (change.deletes()) {
            outcome = deleted(key);
        }
        return change.last() == null ? outcome : write(change);
    }

    private CrMirror.Outcome write(Change change) {
        return mirror.apply(change.wanted(), (before, crUid) -> {
            JobEvents.transition(change.first(), before, crUid).ifPresent(this::record);
            for (Transition t : change.transitions()) {
                JobEvents.transition(t.record(), t.before(), crUid).ifPresent(this::record);
            }
        });
    }

    /** An Event is created once: one of that name exists already when a status is read again. */
    private void record(Event event) {
        KubeEvents.createOnce(client, retry, event);
    }

    static JobKey keyOf(String key) {
        return JobKey.parse(key)
                .orElseThrow(() -> new IllegalArgumentException("key: \"" + key + "\" is not namespace/name"));
    }
}
