package io.lahar.streams.queue;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.lahar.core.api.Manifests;
import io.lahar.core.resource.Resource;
import io.lahar.schema.QueueState;
import io.lahar.schema.QueueStatus;
import io.lahar.streams.kafka.DeadLetters;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;

/**
 * Adds up the jobs' {@link QueueShare}s per queue into Volcano's QueueStatus: how many pod groups
 * are Pending, Inqueue, Running, Completed, Unknown, and what the running pods request. Each
 * share replaces the job's previous one (kept in a store), so the totals are updated by
 * difference and never need a scan; the same shares give the same totals whatever their order.
 */
public final class QueueStatusProcessor implements Processor<byte[], byte[], Object, Object> {

    public static final String SHARES = "queue-shares";
    public static final String TOTALS = "queue-totals";
    public static final String SINK = "queue-status-sink";
    public static final String DEAD_LETTERS = "queue-dead-letters-sink";

    /** A queue's totals as stored. */
    public record Totals(Map<String, Integer> phases, Map<String, String> allocated) {
        public Totals {
            phases = phases == null ? new TreeMap<>() : new TreeMap<>(phases);
            allocated = allocated == null ? new TreeMap<>() : new TreeMap<>(allocated);
        }
    }

    private final Deserializer<io.lahar.schema.Queue> queues;
    private ProcessorContext<Object, Object> context;
    private KeyValueStore<String, byte[]> shares;
    private KeyValueStore<String, byte[]> totals;
    private KeyValueStore<String, byte[]> queueStore;

    public QueueStatusProcessor(Deserializer<io.lahar.schema.Queue> queues) {
        this.queues = queues;
    }

    @Override
    public void init(ProcessorContext<Object, Object> context) {
        this.context = context;
        this.shares = context.getStateStore(SHARES);
        this.totals = context.getStateStore(TOTALS);
        this.queueStore = context.getStateStore(QueueStoreUpdater.STORE);
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        try {
            QueueShare share = read(record.value(), QueueShare.class);
            String queue = share.queue();
            String shareKey = queue + "\u0000" + share.job();
            byte[] old = shares.get(shareKey);
            QueueShare before = old == null ? null : read(old, QueueShare.class);
            if (share.empty()) {
                shares.delete(shareKey);
            } else {
                shares.put(shareKey, write(share));
            }
            byte[] stored = totals.get(queue);
            Totals sum = stored == null ? new Totals(null, null) : read(stored, Totals.class);
            Totals next = add(subtract(sum, before), share);
            totals.put(queue, write(next));
            context.forward(new Record<>(queue, status(queue, next, share.time()), record.timestamp()), SINK);
        } catch (RuntimeException e) {
            context.forward(DeadLetters.of(context, record, e), DEAD_LETTERS);
        }
    }

    private static Totals subtract(Totals sum, QueueShare share) {
        if (share == null) {
            return sum;
        }
        Map<String, Integer> phases = new TreeMap<>(sum.phases());
        if (share.phase() != null) {
            phases.merge(share.phase(), -1, Integer::sum);
        }
        return new Totals(phases, nonZero(Resource.parse(sum.allocated()).subClamped(Resource.parse(share.allocated()))));
    }

    private static Totals add(Totals sum, QueueShare share) {
        Map<String, Integer> phases = new TreeMap<>(sum.phases());
        if (share.phase() != null) {
            phases.merge(share.phase(), 1, Integer::sum);
        }
        return new Totals(phases, nonZero(Resource.parse(sum.allocated()).add(Resource.parse(share.allocated()))));
    }

    private static Map<String, String> nonZero(Resource r) {
        Map<String, String> out = new TreeMap<>();
        r.toQuantities().forEach((k, v) -> {
            if (r.get(k) != 0) {
                out.put(k, v);
            }
        });
        return out;
    }

    private QueueStatus status(String queue, Totals t, long time) {
        return QueueStatus.newBuilder()
                .setName(queue)
                .setState(state(queue))
                .setPending(t.phases().getOrDefault("Pending", 0))
                .setInqueue(t.phases().getOrDefault("Inqueue", 0))
                .setRunning(t.phases().getOrDefault("Running", 0))
                .setCompleted(t.phases().getOrDefault("Completed", 0))
                .setUnknown(t.phases().getOrDefault("Unknown", 0))
                .setAllocated(t.allocated())
                .setDeserved(Map.of())
                .setTime(Instant.ofEpochMilli(time))
                .build();
    }

    /** The queue's state from the queues topic; the built-in queues are Open until it says otherwise. */
    private QueueState state(String queue) {
        byte[] bytes = queueStore.get(queue);
        if (bytes == null) {
            return QueueState.Open;
        }
        try {
            return queues.deserialize(QueueStoreUpdater.STORE, bytes).getState();
        } catch (RuntimeException e) {
            return QueueState.Unknown;
        }
    }

    static byte[] write(Object value) {
        try {
            return Manifests.jsonMapper().writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    static <T> T read(byte[] bytes, Class<T> type) {
        if (bytes == null) {
            throw new IllegalArgumentException("record has no value");
        }
        try {
            return Manifests.jsonMapper().readValue(bytes, type);
        } catch (IOException e) {
            throw new IllegalArgumentException("not a queue share: " + new String(bytes, StandardCharsets.UTF_8), e);
        }
    }
}
