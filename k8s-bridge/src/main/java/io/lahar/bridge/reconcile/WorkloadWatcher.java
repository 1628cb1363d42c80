package io.lahar.bridge.reconcile;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.lahar.bridge.mapping.BridgeLabels;
import io.lahar.bridge.mapping.VolcanoKinds;
import io.lahar.bridge.mapping.Workloads;
import io.lahar.schema.PodGroup;
import io.lahar.schema.Topics;
import io.lahar.schema.WorkloadKeys;
import io.lahar.schema.WorkloadPod;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * Other workloads into Lahar (docs/decisions/048-other-workloads.md): PodGroup CRs the bridge did
 * not make for a Lahar Job become {@code lahar.pod-groups} records keyed
 * {@code namespace/podgroup:<name>}, and the pods that name such a group {@code lahar.workload-pods}
 * records; a deleted CR or pod is a tombstone. A bare pod with the scheduler's name first gets the
 * PodGroup Volcano's pod-group controller would make, and the group's name on the pod; when the pod
 * goes, so does that group (what the garbage collector does with it on a real cluster).
 *
 * <p>Only what changed is sent (a resync, or the bridge's own status write on the CR, sends
 * nothing); a send that failed is tried again at the next resync.
 */
public final class WorkloadWatcher implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(WorkloadWatcher.class);

    private final KubernetesClient client;
    private final RecordSink sink;
    private final Retry retry;
    private final Clock clock;
    private final long resyncMillis;
    private final Optional<String> namespace;
    private final Set<String> schedulerNames;
    private final WorkloadStatusWriter statusWriter;
    private final PriorityClassWatcher priorityClasses;
    /** One group mapped and sent at a time: a change of PriorityClasses reads every group again. */
    private final Object groupLock = new Object();
    /** Record key → what was last sent, so resyncs and status writes that change nothing send nothing. */
    private final Map<String, PodGroup> groupsSent = new ConcurrentHashMap<>();

    private final Map<String, WorkloadPod> podsSent = new ConcurrentHashMap<>();
    /** CR keys a Warning was posted for, so a bad CR is reported once per change, not at each resync. */
    private final Map<String, String> refused = new HashMap<>();

    private volatile SharedIndexInformer<GenericKubernetesResource> groupInformer;
    private SharedIndexInformer<Pod> podInformer;

    /**
     * @param schedulerNames  the scheduler's names: a bare pod asking for one of them gets a PodGroup
     * @param namespace       the one namespace to watch, or empty for all
     * @param priorityClasses the cluster's PriorityClasses, started: a group's record carries its class's value
     */
    public WorkloadWatcher(
            KubernetesClient client,
            RecordSink sink,
            Retry retry,
            Clock clock,
            long resyncMillis,
            Optional<String> namespace,
            Set<String> schedulerNames,
            PriorityClassWatcher priorityClasses) {
        this.client = client;
        this.sink = sink;
        this.retry = retry;
        this.clock = clock;
        this.resyncMillis = resyncMillis;
        this.namespace = namespace;
        this.schedulerNames = Set.copyOf(schedulerNames);
        this.statusWriter = new WorkloadStatusWriter(client, retry);
        this.priorityClasses = priorityClasses;
    }

    public WorkloadWatcher start() {
        priorityClasses.listen(this::priorityClassesChanged);
        var groups = client.genericKubernetesResources(VolcanoKinds.POD_GROUPS);
        groupInformer = Informers.inform(
                (namespace.isPresent() ? groups.inNamespace(namespace.get()) : groups.inAnyNamespace())
                        .withoutLabel(BridgeLabels.MANAGED_BY, BridgeLabels.MANAGER),
                handler(this::groupChanged, this::groupDeleted),
                resyncMillis);
        var pods = namespace.isPresent()
                ? client.pods().inNamespace(namespace.get())
                : client.pods().inAnyNamespace();
        podInformer = Informers.inform(
                pods.withoutLabel(BridgeLabels.MANAGED_BY, BridgeLabels.MANAGER),
                handler(this::podChanged, this::podDeleted),
                resyncMillis);
        return this;
    }

    private static <T> ResourceEventHandler<T> handler(Consumer<T> changed, Consumer<T> deleted) {
        return new ResourceEventHandler<>() {
            @Override
            public void onAdd(T object) {
                changed.accept(object);
            }

            @Override
            public void onUpdate(T old, T object) {
                changed.accept(object);
            }

            @Override
            public void onDelete(T object, boolean finalStateUnknown) {
                deleted.accept(object);
            }
        };
    }

    void groupChanged(GenericKubernetesResource cr) {
        // The selector is the server's; a cluster that ignores it must not make Lahar's mirrors input.
        if (Workloads.isLahars(cr)) return;
        String key = WorkloadKeys.groupKey(
                cr.getMetadata().getNamespace(), cr.getMetadata().getName());
        synchronized (groupLock) {
            try {
                PodGroup record;
                try {
                    record = Workloads.podGroup(cr, priorityClasses.current(), clock.instant());
                } catch (IllegalArgumentException e) {
                    // A group edited into one Lahar refuses: its old spec must not stay scheduled.
                    if (groupsSent.containsKey(key)) {
                        sink.send(Topics.POD_GROUPS.name(), key, null);
                        groupsSent.remove(key);
                    }
                    refuse(cr, key, e.getMessage());
                    return;
                }
                if (Workloads.sameGroup(groupsSent.get(key), record)) return;
                sink.send(Topics.POD_GROUPS.name(), key, record);
                groupsSent.put(key, record);
                synchronized (refused) {
                    // Valid again: a later refusal is news.
                    refused.remove(key);
                }
            } catch (RuntimeException e) {
                LOG.errorf(e, "PodGroup %s: record not sent", key);
            }
        }
    }

    void groupDeleted(GenericKubernetesResource cr) {
        if (Workloads.isLahars(cr)) return;
        String key = WorkloadKeys.groupKey(
                cr.getMetadata().getNamespace(), cr.getMetadata().getName());
        synchronized (groupLock) {
            try {
                sink.send(Topics.POD_GROUPS.name(), key, null);
                groupsSent.remove(key);
                synchronized (refused) {
                    refused.remove(key);
                }
            } catch (RuntimeException e) {
                LOG.errorf(e, "PodGroup %s: tombstone not sent", key);
            }
        }
    }

    /**
     * A PriorityClass was created, changed or deleted: every group is read again, and those whose
     * priority it changes are sent. Each is read from the watch's store under the lock, so a group
     * deleted meanwhile is not sent again after its tombstone.
     */
    private void priorityClassesChanged() {
        SharedIndexInformer<GenericKubernetesResource> groups = groupInformer;
        if (groups == null) return;
        for (String storeKey : groups.getStore().listKeys()) {
            synchronized (groupLock) {
                GenericKubernetesResource cr = groups.getStore().getByKey(storeKey);
                if (cr != null) groupChanged(cr);
            }
        }
    }

    void podChanged(Pod pod) {
        if (Workloads.isLahars(pod)) return;
        String key = Topics.jobKey(
                pod.getMetadata().getNamespace(), pod.getMetadata().getName());
        try {
            Optional<String> group = Workloads.groupOf(pod);
            if (group.isEmpty()) {
                if (Workloads.needsOwnGroup(pod, schedulerNames)
                        && pod.getMetadata().getDeletionTimestamp() == null) {
                    // The pod's update with the group's name brings it back here, in its group.
                    giveOwnGroup(pod);
                }
                return;
            }
            WorkloadPod record = Workloads.pod(pod, group.get(), clock.instant());
            if (Workloads.samePod(podsSent.get(key), record)) return;
            podsSent.put(key, record);
            // Not waiting for the acknowledgement, as the pod watch of Lahar's own pods does not.
            sink.publish(Topics.WORKLOAD_PODS.name(), key, record, e -> {
                // Forgotten, so the pod's next change or resync sends it again.
                podsSent.remove(key, record);
                LOG.errorf(e, "pod %s: workload record not sent", key);
            });
        } catch (RuntimeException e) {
            LOG.errorf(e, "pod %s: workload record not sent", key);
        }
    }

    void podDeleted(Pod pod) {
        if (Workloads.isLahars(pod)) return;
        String key = Topics.jobKey(
                pod.getMetadata().getNamespace(), pod.getMetadata().getName());
        try {
            if (podsSent.remove(key) != null || Workloads.groupOf(pod).isPresent()) {
                sink.send(Topics.WORKLOAD_PODS.name(), key, null);
            }
            deleteOwnGroup(pod);
        } catch (RuntimeException e) {
            LOG.errorf(e, "pod %s: tombstone not sent", key);
        }
    }

    /**
     * Volcano's createNormalPodPGIfNotExist: the group, made from the pod and its owners'
     * annotations (a group-min-member that is not a number is said on the group, as a Warning),
     * then its name on the pod.
     */
    private void giveOwnGroup(Pod pod) {
        String ns = pod.getMetadata().getNamespace();
        Map<String, String> ownerAnnotations = ownerAnnotations(pod);
        try {
            GenericKubernetesResource group =
                    retry.call(() -> client.genericKubernetesResources(VolcanoKinds.POD_GROUPS)
                            .inNamespace(ns)
                            .resource(Workloads.onePodGroup(pod, ownerAnnotations))
                            .create());
            Workloads.minMemberProblem(ownerAnnotations)
                    .ifPresent(problem -> KubeEvents.createOnce(
                            client, retry, Workloads.ownerAnnotationWarning(group, problem, clock.instant())));
        } catch (KubernetesClientException e) {
            if (!Retry.isConflict(e)) throw e;
        }
        for (int attempt = 0; attempt < 5; attempt++) {
            Pod current = retry.call(() -> client.pods()
                    .inNamespace(ns)
                    .withName(pod.getMetadata().getName())
                    .get());
            if (current == null
                    || !pod.getMetadata().getUid().equals(current.getMetadata().getUid())
                    || Workloads.groupOf(current).isPresent()) {
                return;
            }
            Map<String, String> annotations = current.getMetadata().getAnnotations() == null
                    ? new HashMap<>()
                    : new HashMap<>(current.getMetadata().getAnnotations());
            annotations.put(Workloads.GROUP_NAME, Workloads.onePodGroupName(pod));
            current.getMetadata().setAnnotations(annotations);
            try {
                retry.call(() -> client.pods().inNamespace(ns).resource(current).update());
                return;
            } catch (KubernetesClientException e) {
                if (!Retry.isConflict(e)) throw e;
            }
        }
        throw new KubernetesClientException(
                "pod " + ns + "/" + pod.getMetadata().getName() + ": still conflicting after 5 attempts");
    }

    /**
     * The annotations of the pod's owners Volcano's pod-group controller reads
     * (getAnnotationsFromUpperRes: ReplicaSet, DaemonSet, StatefulSet, Job), the first owner's value
     * of a key kept; an owner that is gone has none.
     */
    private Map<String, String> ownerAnnotations(Pod pod) {
        Map<String, String> out = new HashMap<>();
        List<OwnerReference> refs = pod.getMetadata().getOwnerReferences();
        if (refs == null) return out;
        String ns = pod.getMetadata().getNamespace();
        for (OwnerReference o : refs) {
            if (!Workloads.ANNOTATED_OWNERS.contains(o.getApiVersion() + "/" + o.getKind())) continue;
            HasMetadata owner = retry.call(() -> switch (o.getKind()) {
                case "ReplicaSet" ->
                    client.apps()
                            .replicaSets()
                            .inNamespace(ns)
                            .withName(o.getName())
                            .get();
                case "DaemonSet" ->
                    client.apps()
                            .daemonSets()
                            .inNamespace(ns)
                            .withName(o.getName())
                            .get();
                case "StatefulSet" ->
                    client.apps()
                            .statefulSets()
                            .inNamespace(ns)
                            .withName(o.getName())
                            .get();
                default ->
                    client.batch()
                            .v1()
                            .jobs()
                            .inNamespace(ns)
                            .withName(o.getName())
                            .get();
            });
            if (owner != null && owner.getMetadata().getAnnotations() != null) {
                owner.getMetadata().getAnnotations().forEach(out::putIfAbsent);
            }
        }
        return out;
    }

    /** The group Volcano's controller made for a bare pod goes with the pod; any other group is its operator's. */
    private void deleteOwnGroup(Pod pod) {
        if (pod.getMetadata().getUid() == null) return;
        var resource = client.genericKubernetesResources(VolcanoKinds.POD_GROUPS)
                .inNamespace(pod.getMetadata().getNamespace())
                .withName(Workloads.onePodGroupName(pod));
        GenericKubernetesResource group = retry.call(resource::get);
        if (group != null && Workloads.isOwnGroupOf(group, pod)) {
            retry.call(resource::delete);
        }
    }

    /** A CR that is not what a PodGroup has: a Warning on it, never a record the scheduler would refuse. */
    private void refuse(GenericKubernetesResource cr, String key, String reason) {
        synchronized (refused) {
            if (reason.equals(refused.get(key))) return;
            refused.put(key, reason);
        }
        LOG.warnf("PodGroup %s: not scheduled: %s", key, reason);
        KubeEvents.createOnce(client, retry, Workloads.refusal(cr, reason, clock.instant()));
        statusWriter.refuse(cr.getMetadata().getNamespace(), cr.getMetadata().getName(), reason, clock.instant());
    }

    @Override
    public void close() {
        if (groupInformer != null) groupInformer.close();
        if (podInformer != null) podInformer.close();
    }
}
