package io.lahar.streams.rest;

import io.lahar.core.job.JobInfo;
import io.lahar.schema.Topics;
import io.lahar.streams.job.JobEntry;
import io.lahar.streams.job.JobStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsMetadata;
import org.apache.kafka.streams.TaskMetadata;
import org.apache.kafka.streams.ThreadMetadata;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.HostInfo;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Interactive queries on the {@code jobs} store. A key lives on the instance whose task owns its
 * partition: {@link #locate} says whether that is this instance or another one (the resource then
 * forwards the call there), and {@link Unavailable} says the store is not queryable right now (a
 * rebalance, a restore), which the API answers with 503 so the client retries.
 */
@ApplicationScoped
public class JobQueries {

    /** The store cannot answer now (rebalance or restore in progress). */
    public static final class Unavailable extends RuntimeException {
        Unavailable(String message) {
            super(message);
        }
    }

    /** Where a key's entry lives: here, or at another instance's host:port. */
    public sealed interface Location {
        record Local() implements Location {
        }

        record Remote(String hostPort) implements Location {
        }
    }

    private final JobStore.Codec codec = new JobStore.Codec();

    @Inject
    KafkaStreams streams;

    public Location locate(String key) {
        KeyQueryMetadata metadata;
        try {
            metadata = streams.queryMetadataForKey(JobStore.NAME, key, Serdes.String().serializer());
        } catch (IllegalStateException e) {
            throw new Unavailable("streams not running: " + e.getMessage());
        }
        if (metadata == null || KeyQueryMetadata.NOT_AVAILABLE.equals(metadata)
                || HostInfo.unavailable().equals(metadata.activeHost())) {
            throw new Unavailable("no instance owns " + key + " right now");
        }
        return localPartitions().contains(metadata.partition()) ? new Location.Local()
                : new Location.Remote(metadata.activeHost().host() + ":" + metadata.activeHost().port());
    }

    /** The other instances (host:port) that hold a part of the jobs store. */
    public List<String> otherInstances() {
        List<String> others = new ArrayList<>();
        try {
            for (StreamsMetadata metadata : streams.streamsMetadataForStore(JobStore.NAME)) {
                boolean local = metadata.topicPartitions().stream().anyMatch(tp -> localPartitions().contains(tp.partition())
                        && tp.topic().equals(Topics.JOB_COMMANDS.name()));
                if (!local) {
                    others.add(metadata.hostInfo().host() + ":" + metadata.hostInfo().port());
                }
            }
        } catch (IllegalStateException e) {
            throw new Unavailable("streams not running: " + e.getMessage());
        }
        return others;
    }

    /** The live job under {@code key} in this instance's store, if any. */
    public Optional<JobInfo> local(String key) {
        byte[] bytes = store().get(key);
        if (bytes == null) {
            return Optional.empty();
        }
        JobEntry entry = codec.decode(bytes);
        return entry.live() ? Optional.of(entry.info()) : Optional.empty();
    }

    /** Every live job in this instance's part of the store, in key order per partition. */
    public List<JobInfo> allLocal() {
        List<JobInfo> jobs = new ArrayList<>();
        try (KeyValueIterator<String, byte[]> all = store().all()) {
            all.forEachRemaining(kv -> {
                JobEntry entry = codec.decode(kv.value);
                if (entry.live()) {
                    jobs.add(entry.info());
                }
            });
        } catch (InvalidStateStoreException e) {
            throw new Unavailable("jobs store not queryable: " + e.getMessage());
        }
        return jobs;
    }

    private ReadOnlyKeyValueStore<String, byte[]> store() {
        try {
            return streams.store(StoreQueryParameters.fromNameAndType(JobStore.NAME,
                    QueryableStoreTypes.<String, byte[]>keyValueStore()));
        } catch (InvalidStateStoreException e) {
            throw new Unavailable("jobs store not queryable: " + e.getMessage());
        }
    }

    /**
     * The job partitions whose active task runs here. Asking the threads, not comparing host
     * names with {@code application.server}, keeps this right whatever address was configured.
     */
    private Set<Integer> localPartitions() {
        Set<Integer> partitions = new HashSet<>();
        for (ThreadMetadata thread : streams.metadataForLocalThreads()) {
            for (TaskMetadata task : thread.activeTasks()) {
                task.topicPartitions().stream().filter(tp -> tp.topic().equals(Topics.JOB_COMMANDS.name()))
                        .forEach(tp -> partitions.add(tp.partition()));
            }
        }
        return partitions;
    }
}
