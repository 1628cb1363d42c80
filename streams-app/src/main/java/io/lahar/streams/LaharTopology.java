package io.lahar.streams;

import io.lahar.schema.CommandResult;
import io.lahar.schema.DeadLetter;
import io.lahar.schema.JobCommand;
import io.lahar.schema.JobStatusRecord;
import io.lahar.schema.Queue;
import io.lahar.schema.Topics;
import io.lahar.streams.job.JobCommandProcessor;
import io.lahar.streams.job.JobStore;
import io.lahar.schema.serde.RegistrySerdes;
import io.lahar.streams.kafka.TopicBootstrap;
import io.lahar.streams.queue.QueueStoreUpdater;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.Stores;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The streams-app topology. Sources read bytes so that a record which does not decode reaches a
 * processor, which sends it to the dead-letter topic instead of stopping the stream thread.
 */
@ApplicationScoped
public class LaharTopology {

    @Inject
    RegistrySerdes serdes;

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrapServers;

    @ConfigProperty(name = "lahar.topics.create", defaultValue = "true")
    boolean createTopics;

    @Produces
    public Topology topology() {
        if (createTopics) {
            TopicBootstrap.ensureTopics(bootstrapServers);
        }
        return build(serdes);
    }

    /** The topology itself, separate from CDI so TopologyTestDriver tests build the same one. */
    public static Topology build(RegistrySerdes serdes) {
        Topology topology = new Topology();
        var queueSerde = serdes.value(Queue.class);

        topology.addGlobalStore(
                Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(QueueStoreUpdater.STORE), Serdes.String(), Serdes.ByteArray())
                        .withLoggingDisabled(),
                "queues-source", new StringDeserializer(), new ByteArrayDeserializer(), Topics.QUEUES.name(),
                "queues-store-updater", () -> new QueueStoreUpdater(queueSerde.deserializer()));

        topology.addSource("job-commands-source", new ByteArrayDeserializer(), new ByteArrayDeserializer(), Topics.JOB_COMMANDS.name());
        var commandSerde = serdes.value(JobCommand.class);
        topology.addProcessor("job-commands", () -> new JobCommandProcessor(commandSerde.deserializer(), queueSerde.deserializer(), new JobStore.Codec()),
                "job-commands-source");
        topology.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(JobCommandProcessor.STORE),
                Serdes.String(), Serdes.ByteArray()), "job-commands");

        topology.addSink(JobCommandProcessor.RESULTS, Topics.COMMAND_RESULTS.name(), new StringSerializer(),
                serdes.value(CommandResult.class).serializer(), "job-commands");
        topology.addSink(JobCommandProcessor.STATUS, Topics.JOB_STATUS.name(), new StringSerializer(),
                serdes.value(JobStatusRecord.class).serializer(), "job-commands");
        topology.addSink(JobCommandProcessor.DEAD_LETTERS, Topics.DEAD_LETTERS.name(), new ByteArraySerializer(),
                serdes.value(DeadLetter.class).serializer(), "job-commands");
        return topology;
    }
}
