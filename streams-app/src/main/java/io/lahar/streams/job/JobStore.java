package io.lahar.streams.job;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.lahar.core.api.Manifests;
import io.lahar.core.command.JobRecord;

import java.io.IOException;
import java.io.UncheckedIOException;

/** How a job's record is kept in the {@code jobs} state store: JSON, readable in a changelog dump. */
public final class JobStore {

    /** Maximum stored size; a record above it would not fit in the changelog topic. */
    static final int MAX_BYTES = 900 * 1024;

    private JobStore() {
    }

    public static final class Codec {

        public byte[] encode(JobRecord record) {
            try {
                byte[] bytes = Manifests.jsonMapper().writeValueAsBytes(record);
                if (bytes.length > MAX_BYTES) {
                    String key = record.job() == null ? "?" : record.job().namespace() + "/" + record.job().name();
                    throw new IllegalStateException("state of job " + key + " is " + bytes.length
                            + " bytes, over the " + MAX_BYTES + "-byte limit of one record");
                }
                return bytes;
            } catch (JsonProcessingException e) {
                throw new UncheckedIOException(e);
            }
        }

        public JobRecord decode(byte[] bytes) {
            try {
                return Manifests.jsonMapper().readValue(bytes, JobRecord.class);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
