package io.lahar.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import java.util.List;

/**
 * The store ({@link IndexedCrudDispatcher}), with every change written to an {@link ObjectJournal} first. Every create,
 * update, patch and delete of the store goes through {@link #processEvent} (under the store's write
 * lock), which records it ({@link #changing}) before applying it; a restart feeds the journal's
 * objects back through the same {@link #apply}, so the store keys, and CRDs register, as they did the
 * first time.
 */
final class JournaledCrudDispatcher extends IndexedCrudDispatcher {

    private final ObjectJournal journal;

    JournaledCrudDispatcher(List<CustomResourceDefinitionContext> crdContexts, ObjectJournal journal) {
        super(crdContexts);
        this.journal = journal;
    }

    /**
     * Puts back what the journal holds, and counts resource versions on from the largest the store
     * gave out before; a watch from an older version is answered 410 Gone ({@link #restoredAt}).
     */
    int restore() {
        List<ObjectJournal.Stored> objects = journal.objects();
        for (ObjectJournal.Stored stored : objects) {
            apply(stored.path(), getKey(stored.path()), null, null, stored.json());
        }
        long max = journal.maxResourceVersion();
        while (requestResourceVersion() < max) {
            // The store's counter has no setter; a new version must exceed every restored one.
        }
        restoredAt(max);
        return objects.size();
    }

    @Override
    void changing(String path, String before, JsonNode beforeTree, String after, JsonNode afterTree) {
        journal.record(path, before, beforeTree, after, afterTree, currentVersion());
    }
}
