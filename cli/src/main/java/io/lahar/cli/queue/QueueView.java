package io.lahar.cli.queue;

import io.lahar.core.api.Queue;
import io.lahar.schema.QueueStatus;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * One queue as {@code lahar queue list/get} shows it: its configuration from {@code lahar.queues}
 * and the scheduler's counts and shares from {@code lahar.queue-status} (zero when the scheduler
 * has not reported on it yet).
 */
record QueueView(
        String name,
        int weight,
        String state,
        String parent,
        boolean reclaimable,
        int priority,
        Map<String, String> capability,
        Map<String, String> guarantee,
        int inqueue,
        int pending,
        int running,
        int unknown,
        int completed,
        Map<String, String> allocated,
        Map<String, String> deserved) {

    static QueueView of(Queue queue, QueueStatus status) {
        Queue.QueueSpec spec = queue.spec();
        Map<String, String> deserved = status != null && !status.getDeserved().isEmpty()
                ? status.getDeserved()
                : spec == null ? null : spec.deserved();
        return new QueueView(
                queue.name(),
                spec == null || spec.weight() == null ? 1 : spec.weight(),
                state(queue, status),
                queue.parentOrRoot(),
                spec == null || spec.reclaimable() == null || spec.reclaimable(),
                spec == null || spec.priority() == null ? 0 : spec.priority(),
                sorted(spec == null ? null : spec.capability()),
                sorted(
                        spec == null || spec.guarantee() == null
                                ? null
                                : spec.guarantee().resource()),
                status == null ? 0 : status.getInqueue(),
                status == null ? 0 : status.getPending(),
                status == null ? 0 : status.getRunning(),
                status == null ? 0 : status.getUnknown(),
                status == null ? 0 : status.getCompleted(),
                sorted(status == null ? null : status.getAllocated()),
                sorted(deserved));
    }

    /**
     * The state in effect: a queue its record closes is Closing while the scheduler still reports
     * pod groups in it (Volcano's queue controller), then Closed; otherwise the record's state.
     */
    static String state(Queue queue, QueueStatus status) {
        String asked = queue.stateOrOpen().name();
        boolean draining = status != null && status.getState() == io.lahar.schema.QueueState.Closing;
        return asked.equals("Closed") && draining ? "Closing" : asked;
    }

    /** The document of {@code -o json|yaml}: Volcano's Queue layout, spec and status. */
    Map<String, Object> document() {
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("weight", weight);
        spec.put("reclaimable", reclaimable);
        if (!parent.isEmpty()) {
            spec.put("parent", parent);
        }
        spec.put("priority", priority);
        spec.put("capability", capability);
        spec.put("guarantee", Map.of("resource", guarantee));
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("state", state);
        status.put("inqueue", inqueue);
        status.put("pending", pending);
        status.put("running", running);
        status.put("unknown", unknown);
        status.put("completed", completed);
        status.put("allocated", allocated);
        status.put("deserved", deserved);
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("apiVersion", Queue.API_VERSION);
        doc.put("kind", Queue.KIND);
        doc.put("metadata", Map.of("name", name));
        doc.put("spec", spec);
        doc.put("status", status);
        return doc;
    }

    private static Map<String, String> sorted(Map<String, String> map) {
        return map == null ? new TreeMap<>() : new TreeMap<>(map);
    }
}
