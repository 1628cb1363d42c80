package io.lahar.streams.flow;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.lahar.core.api.Manifests;
import io.lahar.streams.kafka.StateSize;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The flow engine's state stores and how their values are kept: JSON, readable in a changelog
 * dump, like the {@code jobs} store.
 */
public final class FlowStores {

    /** JobFlow key → {@link FlowEntry}; persistent, on the partition of the flow's key. */
    public static final String FLOWS = "flows";
    /** JobTemplate key → {@link TemplateEntry}; persistent, on the partition of the template's key. */
    public static final String TEMPLATES = "job-templates";
    /** The flows with a timer, by due time (see {@link FlowTimers}). */
    public static final String TIMERS = "flow-timers";
    /** Global: lahar.job-templates as it is, Avro bytes by template key; what flows instantiate. */
    public static final String GLOBAL_TEMPLATES = "job-templates-global";
    /** Global: lahar.flow-status as it is, Avro bytes by flow key; which flows are unfinished. */
    public static final String GLOBAL_FLOW_STATUS = "flow-status-global";

    /** Maximum stored size; a record above it would not fit in the changelog topic. */
    static final int MAX_BYTES = StateSize.MAX_BYTES;

    /**
     * What a JobFlow's or JobTemplate's entry may grow by after a command besides what
     * {@link FlowCommandInput} estimates (a flow's jobs yet to be created): statuses, histories,
     * the verdicts of later commands.
     */
    static final int GROWTH_BYTES = 128 * 1024;

    /** The most a create or an update may leave an entry at, before any estimate of what its flow's jobs add. */
    static final int COMMAND_MAX_BYTES = MAX_BYTES - GROWTH_BYTES;

    private FlowStores() {}

    /**
     * @throws StateSize.TooLarge naming the key and the size when the value would not fit in one
     *     changelog record: per-flow state must stay bounded, and failing loudly beats a
     *     changelog the broker refuses
     */
    public static byte[] encode(String key, Object value) {
        return encode(key, value, MAX_BYTES);
    }

    /** As {@link #encode(String, Object)}, refusing a value over {@code limit} (at most {@link #MAX_BYTES}) bytes. */
    static byte[] encode(String key, Object value, int limit) {
        try {
            byte[] bytes = Manifests.jsonMapper().writeValueAsBytes(value);
            StateSize.check(key, bytes.length, limit);
            return bytes;
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static <T> T decode(byte[] bytes, Class<T> type) {
        try {
            return Manifests.jsonMapper().readValue(bytes, type);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
