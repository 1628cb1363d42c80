package io.lahar.cli.replay;

import io.lahar.core.admission.AdmissionContext;
import io.lahar.core.api.Manifest;
import io.lahar.core.api.Queue;
import io.lahar.schema.codec.QueueCodec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The queues topic as admission saw it over time. The streams-app's global queue store follows
 * the topic on its own thread, so the queues a command was admitted against are approximated by
 * the queue records with a timestamp up to the command's: exact unless a queue changed within
 * moments of the command.
 */
public final class QueueHistory {

    /** One queues-topic record; {@code queue} null for a tombstone (the queue was deleted). */
    public record Change(long timestamp, String name, io.lahar.schema.Queue queue) {}

    private final List<Change> changes;

    /** @param changes in offset order */
    public QueueHistory(List<Change> changes) {
        this.changes = List.copyOf(changes);
    }

    public static QueueHistory none() {
        return new QueueHistory(List.of());
    }

    /** The queues every install has ({@code root}, {@code default}), then the topic's up to {@code timestamp}. */
    public AdmissionContext admissionAt(long timestamp) {
        // As the global store: the topic's latest record per queue, a tombstone removing it.
        Map<String, io.lahar.schema.Queue> topic = new LinkedHashMap<>();
        for (Change c : changes) {
            if (c.timestamp() > timestamp) {
                continue;
            }
            if (c.queue() == null) {
                topic.remove(c.name());
            } else {
                topic.put(c.name(), c.queue());
            }
        }
        Map<String, Manifest> queues = new LinkedHashMap<>();
        queues.put(Queue.ROOT, AdmissionContext.openQueue(Queue.ROOT, null));
        queues.put(Queue.DEFAULT, AdmissionContext.openQueue(Queue.DEFAULT, Queue.ROOT));
        topic.forEach((name, record) -> queues.put(name, QueueCodec.toQueue(record)));
        return AdmissionContext.of(new ArrayList<>(queues.values()));
    }
}
