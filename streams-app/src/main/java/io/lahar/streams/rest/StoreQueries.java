package io.lahar.streams.rest;

import com.fasterxml.jackson.core.type.TypeReference;
import io.lahar.schema.Topics;
import io.lahar.streams.cron.CronTopology;
import io.lahar.streams.flow.FlowStores;
import io.lahar.streams.job.JobStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.Supplier;
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

/**
 * Interactive queries on the engines' partitioned stores, and the two reads every resource
 * serves from them. A key lives on the instance whose task owns its partition: {@link #locate}
 * says whether that is this instance or another one (the read is then forwarded there), and
 * {@link Unavailable} says a store is not queryable right now (a rebalance, a restore), which the
 * API answers with 503 so the client retries.
 */
@ApplicationScoped
public class StoreQueries {

    /** A store and the input topic it is partitioned like. */
    public record Store(String name, String partitionedLike) {}

    public static final Store JOBS = new Store(JobStore.NAME, Topics.JOB_COMMANDS.name());
    public static final Store FLOWS = new Store(FlowStores.FLOWS, Topics.FLOW_COMMANDS.name());
    public static final Store TEMPLATES = new Store(FlowStores.TEMPLATES, Topics.FLOW_COMMANDS.name());
    public static final Store CRONJOBS = new Store(CronTopology.STORE, Topics.CRONJOB_COMMANDS.name());

    /** The store cannot answer now (rebalance or restore in progress, or another instance silent). */
    public static final class Unavailable extends RuntimeException {
        Unavailable(String message) {
            super(message);
        }
    }

    /** Where a key's entry lives: here, or at another instance's host:port. */
    public sealed interface Location {
        record Local() implements Location {}

        record Remote(String hostPort) implements Location {}
    }

    @Inject
    KafkaStreams streams;

    @Inject
    Forwarder forwarder;

    /**
     * One object: asked of the instance that owns its key ({@code path} there), else {@code local}
     * here, 404 when it has none; 503 while the store cannot answer.
     */
    public Response get(Store store, String key, String path, String what, Supplier<Optional<Response>> local) {
        try {
            if (locate(store, key) instanceof Location.Remote remote) {
                return forwarder.get(remote.hostPort(), path);
            }
            return local.get().orElseGet(() -> Answers.notFound(what + " " + key));
        } catch (Unavailable e) {
            return Answers.unavailable(e.getMessage());
        }
    }

    /** As {@link #get(Store, String, String, String, Supplier)} for the object at {@code at}. */
    Response get(Store store, ObjectAddress at, String what, Supplier<Optional<Response>> local) {
        return get(store, at.key(), at.path(), what, local);
    }

    /**
     * A list: this instance's rows and, unless {@code localOnly}, every other instance's part
     * ({@code path?local=true}), filtered and sorted; 503 while a part cannot be had, since a list
     * missing a partition would look complete.
     */
    public <R> Response list(
            Store store,
            String path,
            boolean localOnly,
            Supplier<List<R>> local,
            TypeReference<List<R>> type,
            Predicate<R> filter,
            Comparator<R> order) {
        try {
            List<R> rows = new ArrayList<>(local.get());
            if (!localOnly) {
                rows.addAll(forwarder.rowsOf(otherInstances(store), path, type));
            }
            return Response.ok(rows.stream().filter(filter).sorted(order).toList())
                    .build();
        } catch (Unavailable e) {
            return Answers.unavailable(e.getMessage());
        } catch (IOException e) {
            return Answers.unavailable("another instance could not be asked: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Answers.unavailable("interrupted");
        }
    }

    public Location locate(Store store, String key) {
        KeyQueryMetadata metadata;
        try {
            metadata = streams.queryMetadataForKey(
                    store.name(), key, Serdes.String().serializer());
        } catch (IllegalStateException e) {
            throw new Unavailable("streams not running: " + e.getMessage());
        }
        if (metadata == null
                || KeyQueryMetadata.NOT_AVAILABLE.equals(metadata)
                || HostInfo.unavailable().equals(metadata.activeHost())) {
            throw new Unavailable("no instance owns " + key + " right now");
        }
        return localPartitions(store).contains(metadata.partition())
                ? new Location.Local()
                : new Location.Remote(metadata.activeHost().host() + ":"
                        + metadata.activeHost().port());
    }

    /** The other instances (host:port) holding a part of {@code store}. */
    public List<String> otherInstances(Store store) {
        List<String> others = new ArrayList<>();
        try {
            Set<Integer> local = localPartitions(store);
            for (StreamsMetadata metadata : streams.streamsMetadataForStore(store.name())) {
                boolean here = metadata.topicPartitions().stream()
                        .anyMatch(tp -> tp.topic().equals(store.partitionedLike()) && local.contains(tp.partition()));
                if (!here) {
                    others.add(metadata.hostInfo().host() + ":"
                            + metadata.hostInfo().port());
                }
            }
        } catch (IllegalStateException e) {
            throw new Unavailable("streams not running: " + e.getMessage());
        }
        return others;
    }

    /** The value under {@code key} in this instance's part of the store; null when none. */
    public byte[] get(Store store, String key) {
        try {
            return open(store).get(key);
        } catch (InvalidStateStoreException e) {
            throw new Unavailable(store.name() + " store not queryable: " + e.getMessage());
        }
    }

    /** Every value in this instance's part of the store, in key order per partition. */
    public List<byte[]> all(Store store) {
        List<byte[]> out = new ArrayList<>();
        try (KeyValueIterator<String, byte[]> it = open(store).all()) {
            it.forEachRemaining(kv -> out.add(kv.value));
        } catch (InvalidStateStoreException e) {
            throw new Unavailable(store.name() + " store not queryable: " + e.getMessage());
        }
        return out;
    }

    private ReadOnlyKeyValueStore<String, byte[]> open(Store store) {
        try {
            return streams.store(StoreQueryParameters.fromNameAndType(
                    store.name(), QueryableStoreTypes.<String, byte[]>keyValueStore()));
        } catch (InvalidStateStoreException e) {
            throw new Unavailable(store.name() + " store not queryable: " + e.getMessage());
        }
    }

    /**
     * The partitions of the store's topic whose active task runs here. Asking the threads, not
     * comparing host names with {@code application.server}, keeps this right whatever address
     * was configured.
     */
    private Set<Integer> localPartitions(Store store) {
        Set<Integer> partitions = new HashSet<>();
        for (ThreadMetadata thread : streams.metadataForLocalThreads()) {
            for (TaskMetadata task : thread.activeTasks()) {
                task.topicPartitions().stream()
                        .filter(tp -> tp.topic().equals(store.partitionedLike()))
                        .forEach(tp -> partitions.add(tp.partition()));
            }
        }
        return partitions;
    }
}
