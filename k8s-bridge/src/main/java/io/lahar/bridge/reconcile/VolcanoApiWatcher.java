package io.lahar.bridge.reconcile;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.lahar.bridge.mapping.CronJobCrs;
import io.lahar.bridge.mapping.FlowCrs;
import io.lahar.bridge.mapping.Mirrors;
import io.lahar.bridge.mapping.VolcanoCrs;
import io.lahar.bridge.mapping.VolcanoKinds;
import io.lahar.schema.CronJobCommand;
import io.lahar.schema.FlowCommand;
import io.lahar.schema.FlowKind;
import io.lahar.schema.JobCommand;
import io.lahar.schema.Topics;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * Volcano's own API as Lahar input, so {@code kubectl apply -f job.yaml} and {@code vcctl} work:
 * Job CRs become submit / update / delete commands, Command CRs (vcctl job suspend, resume, ...)
 * become job actions and are then deleted, as Volcano's controller does, JobFlow and JobTemplate
 * CRs become flow commands, CronJob CRs CronJob commands, and Queue CRs feed the queues topic (a
 * deleted Queue as a tombstone).
 */
public final class VolcanoApiWatcher implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(VolcanoApiWatcher.class);

    private final KubernetesClient client;
    private final RecordSink sink;
    private final Clock clock;
    private final long resyncMillis;
    private final Optional<String> namespace;
    private final MirrorLedger mirrors;
    private final List<SharedIndexInformer<GenericKubernetesResource>> informers = new ArrayList<>();
    /** UIDs of Job, JobFlow and JobTemplate CRs whose submit could not be sent (Kafka away): the next resync sends it again. */
    private final Set<String> unsent = ConcurrentHashMap.newKeySet();

    /**
     * @param resyncMillis how often the informers replay what they hold (0: never), which retries failed sends
     * @param namespace    the one namespace to watch, or empty for all; Queues are cluster-scoped and
     *                     are watched only by a bridge that watches every namespace
     */
    public VolcanoApiWatcher(
            KubernetesClient client, RecordSink sink, Clock clock, long resyncMillis, Optional<String> namespace) {
        this(client, sink, clock, resyncMillis, namespace, new MirrorLedger());
    }

    /** @param mirrors shared with the CR mirror, so that its deletions are not sent back to Lahar */
    public VolcanoApiWatcher(
            KubernetesClient client,
            RecordSink sink,
            Clock clock,
            long resyncMillis,
            Optional<String> namespace,
            MirrorLedger mirrors) {
        this.mirrors = mirrors;
        this.namespace = namespace;
        this.client = client;
        this.sink = sink;
        this.clock = clock;
        this.resyncMillis = resyncMillis;
    }

    public VolcanoApiWatcher start() {
        informers.add(inform(VolcanoKinds.JOBS, new Handler(this::jobAdded, this::jobUpdated, this::jobDeleted)));
        informers.add(
                inform(VolcanoKinds.COMMANDS, new Handler(this::commandAdded, (o, n) -> commandAdded(n), c -> {})));
        for (FlowKind kind : List.of(FlowKind.JobFlow, FlowKind.JobTemplate)) {
            informers.add(inform(
                    kind == FlowKind.JobFlow ? VolcanoKinds.JOB_FLOWS : VolcanoKinds.JOB_TEMPLATES,
                    new Handler(
                            cr -> flowAdded(kind, cr),
                            (o, n) -> flowUpdated(kind, o, n),
                            cr -> flowDeleted(kind, cr))));
        }
        informers.add(inform(
                VolcanoKinds.CRON_JOBS, new Handler(this::cronJobAdded, this::cronJobUpdated, this::cronJobDeleted)));
        if (namespace.isEmpty()) {
            informers.add(inform(
                    VolcanoKinds.QUEUES, new Handler(this::queueChanged, this::queueUpdated, this::queueDeleted)));
        }
        return this;
    }

    private SharedIndexInformer<GenericKubernetesResource> inform(
            io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext kind, Handler handler) {
        var resources = client.genericKubernetesResources(kind);
        if (!kind.isNamespaceScoped()) {
            return Informers.inform(resources, handler, resyncMillis);
        }
        return Informers.inform(
                namespace.isPresent() ? resources.inNamespace(namespace.get()) : resources.inAnyNamespace(),
                handler,
                resyncMillis);
    }

    /**
     * A Job the engine already reported status for is known to it (the bridge is restarting and
     * re-listing): no new submit. Otherwise the submit's request id, derived from the UID, makes a
     * repeat harmless.
     */
    void jobAdded(GenericKubernetesResource job) {
        if (Mirrors.isMirror(job)) {
            mirroredAdded(job, () -> sendCommand(VolcanoCrs.update(job, clock.instant())));
            return;
        }
        if (hasPhase(job)) {
            return;
        }
        String uid = job.getMetadata().getUid();
        unsent.add(uid);
        sendCommand(VolcanoCrs.submit(job, clock.instant()));
        unsent.remove(uid);
    }

    /**
     * Only a change of the spec is an update: status writes (ours) and metadata edits are not, nor
     * is the bridge's own write of a mirrored CR's spec.
     */
    void jobUpdated(GenericKubernetesResource old, GenericKubernetesResource job) {
        if (unsent.contains(job.getMetadata().getUid())) {
            jobAdded(job);
        } else if (specChangedByOthers(old, job)) {
            sendCommand(VolcanoCrs.update(job, clock.instant()));
        }
    }

    void jobDeleted(GenericKubernetesResource job) {
        if (deletedByOthers(job)) {
            sendCommand(VolcanoCrs.delete(job, clock.instant()));
        }
    }

    /**
     * A mirrored CR seen (created, or re-listed) is Lahar's object shown back, no input; unless its
     * spec is no longer the one the bridge wrote (edited while the bridge was away): then it is an update.
     */
    private static void mirroredAdded(GenericKubernetesResource cr, Runnable update) {
        if (!Mirrors.writtenByBridge(cr)) {
            update.run();
        }
    }

    private static boolean specChangedByOthers(GenericKubernetesResource old, GenericKubernetesResource cr) {
        return !Objects.equals(
                        old.getAdditionalProperties().get("spec"),
                        cr.getAdditionalProperties().get("spec"))
                && !Mirrors.writtenByBridge(cr);
    }

    /**
     * Whether someone other than the bridge deleted the CR (the bridge deletes a CR after its Lahar
     * object is gone: nothing to send). Noted, so that a status read late does not bring the CR back.
     */
    private boolean deletedByOthers(GenericKubernetesResource cr) {
        if (mirrors.deletedByBridge(cr.getMetadata().getUid())) {
            return false;
        }
        mirrors.deletedInCluster(Mirrors.engineUid(cr));
        return true;
    }

    /** Also called on resync: a Command still there was not sent, or not deleted; its request id makes a repeat harmless. */
    void commandAdded(GenericKubernetesResource command) {
        String ns = command.getMetadata().getNamespace();
        sendCommand(VolcanoCrs.action(command, clock.instant()));
        try {
            client.genericKubernetesResources(VolcanoKinds.COMMANDS)
                    .inNamespace(ns)
                    .withName(command.getMetadata().getName())
                    .delete();
        } catch (KubernetesClientException e) {
            LOG.warnf(
                    "Command %s/%s sent but not deleted: %s",
                    ns, command.getMetadata().getName(), e.getMessage());
        }
    }

    /**
     * As for Jobs: a JobFlow with a phase on its status is known to the engine (a re-list after a
     * restart); otherwise the UID-derived request id makes a repeat harmless.
     */
    void flowAdded(FlowKind kind, GenericKubernetesResource cr) {
        if (Mirrors.isMirror(cr)) {
            mirroredAdded(cr, () -> sendFlowCommand(FlowCrs.resubmit(cr, kind, clock.instant())));
            return;
        }
        if (hasPhase(cr)) {
            return;
        }
        String uid = cr.getMetadata().getUid();
        unsent.add(uid);
        sendFlowCommand(FlowCrs.submit(cr, kind, clock.instant()));
        unsent.remove(uid);
    }

    void flowUpdated(FlowKind kind, GenericKubernetesResource old, GenericKubernetesResource cr) {
        if (unsent.contains(cr.getMetadata().getUid())) {
            flowAdded(kind, cr);
        } else if (specChangedByOthers(old, cr)) {
            sendFlowCommand(FlowCrs.resubmit(cr, kind, clock.instant()));
        }
    }

    void flowDeleted(FlowKind kind, GenericKubernetesResource cr) {
        if (deletedByOthers(cr)) {
            sendFlowCommand(FlowCrs.delete(cr, kind, clock.instant()));
        }
    }

    /**
     * A CronJob, created or changed: its submit creates it, or updates the one of that name (the
     * engine treats a repeat of the same spec as no change); a status write (ours) is no change.
     */
    void cronJobAdded(GenericKubernetesResource cr) {
        String uid = cr.getMetadata().getUid();
        unsent.add(uid);
        sendCronJobCommand(CronJobCrs.submit(cr, clock.instant()));
        unsent.remove(uid);
    }

    void cronJobUpdated(GenericKubernetesResource old, GenericKubernetesResource cr) {
        if (unsent.contains(cr.getMetadata().getUid())) {
            cronJobAdded(cr);
        } else if (!Objects.equals(
                old.getAdditionalProperties().get("spec"),
                cr.getAdditionalProperties().get("spec"))) {
            sendCronJobCommand(CronJobCrs.resubmit(cr, clock.instant()));
        }
    }

    void cronJobDeleted(GenericKubernetesResource cr) {
        sendCronJobCommand(CronJobCrs.delete(cr, clock.instant()));
    }

    private void sendCronJobCommand(CronJobCommand command) {
        sink.send(Topics.CRONJOB_COMMANDS.name(), Topics.jobKey(command.getNamespace(), command.getName()), command);
    }

    private static boolean hasPhase(GenericKubernetesResource cr) {
        return cr.getAdditionalProperties().get("status") instanceof Map<?, ?> status
                && status.get("state") instanceof Map<?, ?> state
                && state.get("phase") != null;
    }

    private void sendFlowCommand(FlowCommand command) {
        sink.send(Topics.FLOW_COMMANDS.name(), Topics.jobKey(command.getNamespace(), command.getName()), command);
    }

    /** A mirrored Queue the bridge wrote is the queue record shown back: no input. */
    void queueChanged(GenericKubernetesResource queue) {
        if (Mirrors.writtenByBridge(queue)) {
            return;
        }
        sink.send(Topics.QUEUES.name(), queue.getMetadata().getName(), VolcanoCrs.queue(queue, clock.instant()));
    }

    /**
     * The bridge writes the scheduler's counts onto the Queue's status; those writes are no change
     * of the queue and are not sent back (it would loop through the scheduler). A change of the
     * spec or of status.state (open / close) is; so is a resync (same resource version), which
     * re-sends what Kafka may have refused. A mirrored Queue is input only when someone changed its
     * spec: its state is the scheduler's, written from lahar.queue-status.
     */
    void queueUpdated(GenericKubernetesResource old, GenericKubernetesResource queue) {
        if (Mirrors.isMirror(queue)) {
            queueChanged(queue);
            return;
        }
        boolean resync = Objects.equals(
                old.getMetadata().getResourceVersion(), queue.getMetadata().getResourceVersion());
        if (resync
                || !Objects.equals(
                        old.getAdditionalProperties().get("spec"),
                        queue.getAdditionalProperties().get("spec"))
                || !Objects.equals(state(old), state(queue))) {
            queueChanged(queue);
        }
    }

    /** A Queue without a state is Open (Volcano's default), as {@link VolcanoCrs#queue} reads it. */
    private static Object state(GenericKubernetesResource queue) {
        Object state =
                queue.getAdditionalProperties().get("status") instanceof Map<?, ?> status ? status.get("state") : null;
        return state == null ? "Open" : state;
    }

    void queueDeleted(GenericKubernetesResource queue) {
        if (mirrors.deletedByBridge(queue.getMetadata().getUid())) {
            return;
        }
        sink.send(Topics.QUEUES.name(), queue.getMetadata().getName(), null);
    }

    private void sendCommand(JobCommand command) {
        sink.send(Topics.JOB_COMMANDS.name(), Topics.jobKey(command.getNamespace(), command.getName()), command);
    }

    @Override
    public void close() {
        informers.forEach(SharedIndexInformer::close);
    }

    /** Every handler failure is logged with the object, and never stops the informer. */
    private record Handler(
            Consumer<GenericKubernetesResource> added,
            java.util.function.BiConsumer<GenericKubernetesResource, GenericKubernetesResource> updated,
            Consumer<GenericKubernetesResource> deleted)
            implements ResourceEventHandler<GenericKubernetesResource> {
        @Override
        public void onAdd(GenericKubernetesResource obj) {
            guarded(obj, () -> added.accept(obj));
        }

        @Override
        public void onUpdate(GenericKubernetesResource old, GenericKubernetesResource obj) {
            guarded(obj, () -> updated.accept(old, obj));
        }

        @Override
        public void onDelete(GenericKubernetesResource obj, boolean finalStateUnknown) {
            guarded(obj, () -> deleted.accept(obj));
        }

        private static void guarded(GenericKubernetesResource obj, Runnable action) {
            try {
                action.run();
            } catch (RuntimeException e) {
                LOG.errorf(
                        "%s %s/%s: %s",
                        obj.getKind(),
                        obj.getMetadata().getNamespace(),
                        obj.getMetadata().getName(),
                        e.getMessage());
            }
        }
    }
}
