package io.lahar.streams.flow;

import io.lahar.core.flow.EntryState;
import io.lahar.core.flow.FlowInfo;
import io.lahar.core.flow.FlowJob;
import io.lahar.streams.clock.DueIndex;
import java.util.OptionalLong;
import org.apache.kafka.streams.state.KeyValueStore;

/** The flows' entries in a {@link DueIndex}: when each flow next needs a tick. */
final class FlowTimers extends DueIndex {

    FlowTimers(KeyValueStore<String, byte[]> store) {
        super(store);
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
        if (info == null
                || info.flow() == null
                || info.deleted()
                || info.phase() == null
                || info.phase().isFinished()) {
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
}
