package io.lahar.streams.job;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.lahar.core.api.Manifests;

import java.io.IOException;
import java.io.UncheckedIOException;

/** How a job's entry is kept in the {@code jobs} state store: JSON, readable in a changelog dump. */
public final class JobStore {

    public static final String NAME = "jobs";

    /** Maximum stored size; a record above it would not fit in the changelog topic. */
    static final int MAX_BYTES = 900 * 1024;

    private JobStore() {
    }

    public static final class Codec {

        /**
         * @throws IllegalStateException naming the key and the size, when the entry would not fit
         *     in one changelog record: state per job must stay bounded, and failing loudly beats
         *     a changelog the broker refuses
         */
        public byte[] encode(String key, JobEntry entry) {
            try {
                byte[] bytes = Manifests.jsonMapper().writeValueAsBytes(entry);
                if (bytes.length > MAX_BYTES) {
                    throw new IllegalStateException("state of job " + key + " is " + bytes.length
                            + " bytes, over the " + MAX_BYTES + "-byte limit of one record");
                }
                return bytes;
            } catch (JsonProcessingException e) {
                throw new UncheckedIOException(e);
            }
        }

        public JobEntry decode(byte[] bytes) {
            try {
                return Manifests.jsonMapper().readValue(bytes, JobEntry.class);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
