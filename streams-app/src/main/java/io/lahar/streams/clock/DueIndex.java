package io.lahar.streams.clock;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.jboss.logging.Logger;

/**
 * The objects of an engine (JobFlows, CronJobs) with something due, keyed by due time so that a
 * clock tick finds them with one range scan instead of reading every object: key
 * {@code <due, 19 digits> <object key>}, empty value, at most one entry per object (its earliest
 * due time), and the clock time last seen under a key that sorts after every due-time key. The
 * job processor's TimerIndex does the same for jobs.
 */
public class DueIndex {

    private static final Logger LOG = Logger.getLogger(DueIndex.class);
    private static final byte[] PRESENT = new byte[0];
    private static final String CLOCK = "~clock";

    private final KeyValueStore<String, byte[]> store;

    public DueIndex(KeyValueStore<String, byte[]> store) {
        this.store = store;
    }

    static String key(long due, String objectKey) {
        return String.format("%019d %s", Math.max(0, due), objectKey);
    }

    public OptionalLong clock() {
        byte[] b = store.get(CLOCK);
        return b == null
                ? OptionalLong.empty()
                : OptionalLong.of(Long.parseLong(new String(b, StandardCharsets.US_ASCII)));
    }

    public void clock(long time) {
        store.put(CLOCK, Long.toString(time).getBytes(StandardCharsets.US_ASCII));
    }

    /** Moves the object's entry from its old due time to its new one. */
    public void update(String objectKey, OptionalLong before, OptionalLong after) {
        if (before.equals(after)) {
            return;
        }
        before.ifPresent(due -> store.delete(key(due, objectKey)));
        after.ifPresent(due -> store.put(key(due, objectKey), PRESENT));
    }

    /** One object due at {@code due}, by its key (a JobFlow's or a CronJob's). */
    public record Due(long due, String key) {}

    public void remove(Due d) {
        store.delete(key(d.due(), d.key()));
    }

    /** Wakes one object due. */
    @FunctionalInterface
    public interface Waker {
        void wake(Due due);
    }

    /**
     * A tick: unless it is late or repeated (time does not go back), the clock moves to
     * {@code time} and {@code waker} wakes the objects due by then, at most {@code budget} (the
     * rest on the next ticks). One object the engine cannot handle leaves the index, logged, and
     * does not hold back the others.
     *
     * @param what the objects' kind, for the log
     */
    public void tick(long time, int budget, String what, Waker waker) {
        OptionalLong last = clock();
        if (last.isPresent() && time <= last.getAsLong()) {
            return;
        }
        clock(time);
        for (Due due : due(time, budget)) {
            try {
                waker.wake(due);
            } catch (RuntimeException e) {
                LOG.errorf(
                        e,
                        "%s %s due at %d could not be woken at %d; it leaves the index",
                        what,
                        due.key(),
                        due.due(),
                        time);
                remove(due);
            }
        }
    }

    /** Up to {@code budget} objects due at or before {@code time}, earliest first. */
    public List<Due> due(long time, int budget) {
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
