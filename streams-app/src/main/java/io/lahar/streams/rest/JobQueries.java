package io.lahar.streams.rest;

import io.lahar.core.job.JobInfo;
import io.lahar.streams.job.JobEntry;
import io.lahar.streams.job.JobStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The live jobs of this instance's part of the {@code jobs} store, decoded. */
@ApplicationScoped
public class JobQueries {

    private final JobStore.Codec codec = new JobStore.Codec();

    @Inject
    StoreQueries stores;

    /** The live job under {@code key} in this instance's store, if any. */
    public Optional<JobInfo> local(String key) {
        byte[] bytes = stores.get(StoreQueries.JOBS, key);
        if (bytes == null) {
            return Optional.empty();
        }
        JobEntry entry = codec.decode(bytes);
        return entry.live() ? Optional.of(entry.info()) : Optional.empty();
    }

    /** Every live job in this instance's part of the store, in key order per partition. */
    public List<JobInfo> allLocal() {
        List<JobInfo> jobs = new ArrayList<>();
        for (byte[] bytes : stores.all(StoreQueries.JOBS)) {
            JobEntry entry = codec.decode(bytes);
            if (entry.live()) {
                jobs.add(entry.info());
            }
        }
        return jobs;
    }
}
