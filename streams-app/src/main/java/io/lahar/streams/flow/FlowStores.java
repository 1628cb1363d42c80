package io.lahar.streams.flow;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.lahar.core.api.Manifests;

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
    static final int MAX_BYTES = 900 * 1024;

    private FlowStores() {
    }

    /**
     * @throws IllegalStateException naming the key and the size when the value would not fit in
     *     one changelog record: per-flow state must stay bounded, and failing loudly beats a
     *     changelog the broker refuses
     */
    static byte[] encode(String key, Object value) {
        try {
            byte[] bytes = Manifests.jsonMapper().writeValueAsBytes(value);
            if (bytes.length > MAX_BYTES) {
                throw new IllegalStateException("state of " + key + " is " + bytes.length + " bytes, over the "
                        + MAX_BYTES + "-byte limit of one record");
            }
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
