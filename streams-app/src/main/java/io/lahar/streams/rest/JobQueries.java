package io.lahar.streams.rest;

import io.lahar.core.job.JobInfo;
import io.lahar.streams.job.JobEntry;
import io.lahar.streams.job.JobStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsMetadata;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.HostInfo;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

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

    @ConfigProperty(name = "quarkus.kafka-streams.application-server")
    Optional<String> applicationServer;

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
        return isLocal(metadata.activeHost()) ? new Location.Local()
                : new Location.Remote(metadata.activeHost().host() + ":" + metadata.activeHost().port());
    }

    /** The other instances (host:port) that hold a part of the jobs store. */
    public List<String> otherInstances() {
        List<String> others = new ArrayList<>();
        try {
            for (StreamsMetadata metadata : streams.streamsMetadataForStore(JobStore.NAME)) {
                if (!isLocal(metadata.hostInfo())) {
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

    private boolean isLocal(HostInfo host) {
        // With no application.server there is one instance by construction: everything is local.
        return applicationServer.isEmpty() || applicationServer.get().equals(host.host() + ":" + host.port());
    }
}
