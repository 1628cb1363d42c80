package io.lahar.streams.flow;

import io.lahar.core.flow.EntryState;
import io.lahar.core.flow.FlowInfo;
import io.lahar.core.flow.FlowJob;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * The flows with something due, keyed by due time so that a clock tick finds them with one range
 * scan instead of reading every flow: key {@code <due, 19 digits> <flow key>}, empty value, at
 * most one entry per flow (its earliest due time). The job processor's TimerIndex does the same
 * for jobs; flows keep their own so the two engines stay independent.
 */
final class FlowTimers {

    private static final byte[] PRESENT = new byte[0];
    /** The clock time last seen, under a key that sorts after every due-time key. */
    private static final String CLOCK = "~clock";

    private final KeyValueStore<String, byte[]> store;

    FlowTimers(KeyValueStore<String, byte[]> store) {
        this.store = store;
    }

    static String key(long due, String flowKey) {
        return String.format("%019d %s", Math.max(0, due), flowKey);
    }

    /**
     * When the flow next needs a tick: the end of the earliest retry backoff, or at once (the next
     * tick) while an entry waits for a JobTemplate that did not exist when it was due — templates
     * live on other partitions, so the flow looks again on each tick instead of being told.
     */
    static OptionalLong nextDue(FlowEntry entry) {
        if (entry != null && entry.held() != null) {
            // A submission waiting for its templates is looked at on every tick, whatever its time says.
            return OptionalLong.of(0);
        }
        return nextDue(entry == null ? null : entry.info());
    }

    static OptionalLong nextDue(FlowInfo info) {
        if (info == null || info.flow() == null || info.deleted() || info.phase() == null || info.phase().isFinished()) {
            return OptionalLong.empty();
        }
        long due = Long.MAX_VALUE;
        for (FlowJob j : info.jobs().values()) {
            if (j.state() == EntryState.Backoff && j.retryAt() != null) {
                due = Math.min(due, j.retryAt());
            } else if (j.state() == EntryState.Waiting && j.blocked()) {
                due = Math.min(due, info.time() + 1);
            }
        }
        return due == Long.MAX_VALUE ? OptionalLong.empty() : OptionalLong.of(due);
    }

    OptionalLong clock() {
        byte[] b = store.get(CLOCK);
        return b == null ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(new String(b, StandardCharsets.US_ASCII)));
    }

    void clock(long time) {
        store.put(CLOCK, Long.toString(time).getBytes(StandardCharsets.US_ASCII));
    }

    /** Moves the flow's entry from its old due time to its new one. */
    void update(String flowKey, OptionalLong before, OptionalLong after) {
        if (before.equals(after)) {
            return;
        }
        before.ifPresent(due -> store.delete(key(due, flowKey)));
        after.ifPresent(due -> store.put(key(due, flowKey), PRESENT));
    }

    record Due(long due, String flow) {
    }

    void remove(Due d) {
        store.delete(key(d.due(), d.flow()));
    }

    /** Up to {@code budget} flows due at or before {@code time}, earliest first. */
    List<Due> due(long time, int budget) {
        List<Due> out = new ArrayList<>();
        try (KeyValueIterator<String, byte[]> it = store.range(key(0, ""), key(time, "\uffff"))) {
            while (it.hasNext() && out.size() < budget) {
                KeyValue<String, byte[]> e = it.next();
                out.add(new Due(Long.parseLong(e.key.substring(0, 19)), e.key.substring(20)));
            }
        }
        return out;
    }
}
