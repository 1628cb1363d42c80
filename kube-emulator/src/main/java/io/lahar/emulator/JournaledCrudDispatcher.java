package io.lahar.emulator;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.mockwebserver.crud.AttributeSet;
import java.util.List;

/**
 * The store ({@link IndexedCrudDispatcher}), with every change written to an {@link ObjectJournal} first. Every create,
 * update, patch and delete of the store goes through {@link #processEvent} (under the store's write
 * lock), which is where the change is recorded; a restart feeds the journal's objects back through
 * the same method, so the store keys, and CRDs register, as they did the first time.
 */
final class JournaledCrudDispatcher extends IndexedCrudDispatcher {

    private final ObjectJournal journal;

    JournaledCrudDispatcher(List<CustomResourceDefinitionContext> crdContexts, ObjectJournal journal) {
        super(crdContexts);
        this.journal = journal;
    }

    /** Puts back what the journal holds, and counts resource versions on from the largest restored. */
    int restore() {
        List<ObjectJournal.Stored> objects = journal.objects();
        for (ObjectJournal.Stored stored : objects) {
            super.processEvent(stored.path(), getKey(stored.path()), null, null, stored.json());
        }
        long max = journal.maxResourceVersion();
        while (requestResourceVersion() < max) {
            // The store's counter has no setter; a new version must exceed every restored one.
        }
        return objects.size();
    }

    @Override
    public void processEvent(
            String path,
            AttributeSet pathAttributes,
            AttributeSet oldAttributes,
            GenericKubernetesResource resource,
            String newState) {
        String existing = oldAttributes == null ? null : stored(oldAttributes);
        journal.record(path, existing, newState);
        super.processEvent(path, pathAttributes, oldAttributes, resource, newState);
    }
}
