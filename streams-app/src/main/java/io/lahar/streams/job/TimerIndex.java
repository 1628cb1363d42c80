package io.lahar.streams.job;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The jobs with an armed timer, keyed by due time so that a tick finds the due ones with one
 * range scan instead of reading every job: key {@code <due, 19 digits> <job key>}, empty value.
 * Each job has at most one entry, its earliest due time; the engine fires whatever else is due
 * when it runs.
 */
public final class TimerIndex {

    public static final String NAME = "job-timers";
    private static final byte[] PRESENT = new byte[0];

    private final KeyValueStore<String, byte[]> store;

    public TimerIndex(KeyValueStore<String, byte[]> store) {
        this.store = store;
    }

    static String key(long due, String jobKey) {
        return String.format("%019d %s", Math.max(0, due), jobKey);
    }

    /**
     * The clock time the engine last ran timers at; kept beside the index under a key that sorts
     * after every due-time key, so no range scan ever meets it.
     */
    private static final String CLOCK = "~clock";

    public OptionalLong clock() {
        byte[] b = store.get(CLOCK);
        return b == null
                ? OptionalLong.empty()
                : OptionalLong.of(Long.parseLong(new String(b, java.nio.charset.StandardCharsets.US_ASCII)));
    }

    public void clock(long time) {
        store.put(CLOCK, Long.toString(time).getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    }

    /** Moves the job's entry from its old due time to its new one. */
    public void update(String jobKey, OptionalLong before, OptionalLong after) {
        if (before.equals(after)) {
            return;
        }
        before.ifPresent(due -> store.delete(key(due, jobKey)));
        after.ifPresent(due -> store.put(key(due, jobKey), PRESENT));
    }

    /** A job with a timer due. */
    public record Due(long due, String job) {}

    /** Takes the job out of the index (its timers then wait for its next input to be indexed again). */
    public void remove(Due entry) {
        store.delete(key(entry.due(), entry.job()));
    }

    /** Up to {@code budget} jobs with a timer due at or before {@code time}, earliest first. */
    public List<Due> due(long time, int budget) {
        List<Due> jobs = new ArrayList<>();
        // Space sorts before every character of a key, so this bound includes every job due at {@code time}.
        try (KeyValueIterator<String, byte[]> it = store.range(key(0, ""), key(time, "\uffff"))) {
            while (it.hasNext() && jobs.size() < budget) {
                KeyValue<String, byte[]> e = it.next();
                jobs.add(new Due(Long.parseLong(e.key.substring(0, 19)), e.key.substring(20)));
            }
        }
        return jobs;
    }
}
