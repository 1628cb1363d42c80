package io.lahar.streams.rest;

import io.lahar.schema.Topics;
import io.lahar.streams.cron.CronTopology;
import io.lahar.streams.flow.FlowEntry;
import io.lahar.streams.flow.FlowStores;
import io.lahar.streams.flow.TemplateEntry;
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
 * Interactive queries on the flow engine's {@code flows} and {@code job-templates} stores, which
 * are partitioned like {@code lahar.flow-commands}, and on the CronJob engine's {@code cronjobs},
 * partitioned like {@code lahar.cronjob-commands}: a key lives on the instance whose task owns
 * its partition ({@link #locate}); {@link JobQueries.Unavailable} while a store is not queryable.
 */
@ApplicationScoped
public class FlowQueries {

    @Inject
    KafkaStreams streams;

    public JobQueries.Location locate(String store, String key) {
        KeyQueryMetadata metadata;
        try {
            metadata = streams.queryMetadataForKey(store, key, Serdes.String().serializer());
        } catch (IllegalStateException e) {
            throw new JobQueries.Unavailable("streams not running: " + e.getMessage());
        }
        if (metadata == null || KeyQueryMetadata.NOT_AVAILABLE.equals(metadata)
                || HostInfo.unavailable().equals(metadata.activeHost())) {
            throw new JobQueries.Unavailable("no instance owns " + key + " right now");
        }
        return localPartitions(commandsOf(store)).contains(metadata.partition()) ? new JobQueries.Location.Local()
                : new JobQueries.Location.Remote(metadata.activeHost().host() + ":" + metadata.activeHost().port());
    }

    /** The other instances (host:port) holding a part of {@code store}. */
    public List<String> otherInstances(String store) {
        List<String> others = new ArrayList<>();
        try {
            String topic = commandsOf(store);
            Set<Integer> local = localPartitions(topic);
            for (StreamsMetadata metadata : streams.streamsMetadataForStore(store)) {
                boolean here = metadata.topicPartitions().stream()
                        .anyMatch(tp -> tp.topic().equals(topic) && local.contains(tp.partition()));
                if (!here) {
                    others.add(metadata.hostInfo().host() + ":" + metadata.hostInfo().port());
                }
            }
        } catch (IllegalStateException e) {
            throw new JobQueries.Unavailable("streams not running: " + e.getMessage());
        }
        return others;
    }

    public Optional<FlowEntry> flow(String key) {
        byte[] bytes = get(FlowStores.FLOWS, key);
        return bytes == null ? Optional.empty() : Optional.of(FlowStores.decode(bytes, FlowEntry.class)).filter(FlowEntry::live);
    }

    public List<FlowEntry> flows() {
        List<FlowEntry> out = new ArrayList<>();
        for (byte[] bytes : all(FlowStores.FLOWS)) {
            FlowEntry e = FlowStores.decode(bytes, FlowEntry.class);
            if (e.live()) {
                out.add(e);
            }
        }
        return out;
    }

    public Optional<TemplateEntry> template(String key) {
        byte[] bytes = get(FlowStores.TEMPLATES, key);
        return bytes == null ? Optional.empty()
                : Optional.of(FlowStores.decode(bytes, TemplateEntry.class)).filter(t -> t.template() != null);
    }

    public List<TemplateEntry> templates() {
        List<TemplateEntry> out = new ArrayList<>();
        for (byte[] bytes : all(FlowStores.TEMPLATES)) {
            TemplateEntry e = FlowStores.decode(bytes, TemplateEntry.class);
            if (e.template() != null) {
                out.add(e);
            }
        }
        return out;
    }

    byte[] get(String store, String key) {
        try {
            return store(store).get(key);
        } catch (InvalidStateStoreException e) {
            throw new JobQueries.Unavailable(store + " store not queryable: " + e.getMessage());
        }
    }

    List<byte[]> all(String store) {
        List<byte[]> out = new ArrayList<>();
        try (KeyValueIterator<String, byte[]> it = store(store).all()) {
            it.forEachRemaining(kv -> out.add(kv.value));
        } catch (InvalidStateStoreException e) {
            throw new JobQueries.Unavailable(store + " store not queryable: " + e.getMessage());
        }
        return out;
    }

    private ReadOnlyKeyValueStore<String, byte[]> store(String name) {
        try {
            return streams.store(StoreQueryParameters.fromNameAndType(name, QueryableStoreTypes.<String, byte[]>keyValueStore()));
        } catch (InvalidStateStoreException e) {
            throw new JobQueries.Unavailable(name + " store not queryable: " + e.getMessage());
        }
    }

    /** The commands topic a store is partitioned like: the CronJob engine's, or the flow engine's. */
    private static String commandsOf(String store) {
        return store.equals(CronTopology.STORE) ? Topics.CRONJOB_COMMANDS.name() : Topics.FLOW_COMMANDS.name();
    }

    /** The partitions of {@code topic} whose active task runs here. */
    private Set<Integer> localPartitions(String topic) {
        Set<Integer> partitions = new HashSet<>();
        for (ThreadMetadata thread : streams.metadataForLocalThreads()) {
            for (TaskMetadata task : thread.activeTasks()) {
                task.topicPartitions().stream().filter(tp -> tp.topic().equals(topic))
                        .forEach(tp -> partitions.add(tp.partition()));
            }
        }
        return partitions;
    }
}
