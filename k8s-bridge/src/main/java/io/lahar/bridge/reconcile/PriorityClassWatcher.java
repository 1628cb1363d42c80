package io.lahar.bridge.reconcile;

import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.lahar.core.scheduling.api.PriorityClasses;

/**
 * The cluster's PriorityClasses ({@code scheduling.k8s.io/v1}), so another workload's PodGroup gets
 * the priority its {@code priorityClassName} stands for, as Volcano's scheduler cache gives it
 * ({@link PriorityClasses}); each change is told, so the groups can be read again.
 */
final class PriorityClassWatcher implements AutoCloseable {

    private final KubernetesClient client;
    private volatile SharedIndexInformer<PriorityClass> informer;

    PriorityClassWatcher(KubernetesClient client) {
        this.client = client;
    }

    /** Lists the classes before it returns; {@code changed} runs after each change of them. */
    PriorityClassWatcher start(Runnable changed) {
        informer = client.scheduling().v1().priorityClasses().inform(new ResourceEventHandler<>() {
            @Override
            public void onAdd(PriorityClass pc) {
                changed.run();
            }

            @Override
            public void onUpdate(PriorityClass old, PriorityClass pc) {
                changed.run();
            }

            @Override
            public void onDelete(PriorityClass pc, boolean finalStateUnknown) {
                changed.run();
            }
        });
        return this;
    }

    /** The classes as the watch has them now (none before it started). */
    PriorityClasses current() {
        SharedIndexInformer<PriorityClass> watch = informer;
        return watch == null
                ? PriorityClasses.NONE
                : PriorityClasses.of(watch.getStore().list().stream()
                        .map(PriorityClassWatcher::core)
                        .toList());
    }

    private static io.lahar.core.api.PriorityClass core(PriorityClass pc) {
        return io.lahar.core.api.PriorityClass.of(pc.getMetadata().getName(), pc.getValue(), pc.getGlobalDefault());
    }

    @Override
    public void close() {
        if (informer != null) informer.close();
    }
}
