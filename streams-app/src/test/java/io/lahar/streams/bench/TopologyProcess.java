package io.lahar.streams.bench;

import io.lahar.schema.serde.RegistrySerdes;
import io.lahar.streams.LaharTopology;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;

/**
 * The benchmark's topology in a JVM of its own, as the streams-app runs it: {@link LaharTopology}
 * with the streams-app's Kafka Streams settings ({@link LifecycleBenchmark#streamsConfig}), until
 * the parent closes stdin (see {@link BenchProcess}).
 *
 * <pre>TopologyProcess BOOTSTRAP REGISTRY_URL APPLICATION_ID STATE_DIR</pre>
 */
public final class TopologyProcess {

    private TopologyProcess() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 4) {
            System.err.println("usage: TopologyProcess BOOTSTRAP REGISTRY_URL APPLICATION_ID STATE_DIR");
            System.exit(2);
        }
        LifecycleBenchmark.quietClientLogs();
        KafkaStreams streams = start(args[0], new RegistrySerdes(args[1]), args[2], args[3]);
        System.out.println(BenchProcess.READY);
        System.out.flush();
        BenchProcess.awaitParent();
        streams.close(Duration.ofSeconds(30));
        System.exit(0);
    }

    /**
     * Starts the topology with the streams-app's settings; returns once it runs. A stream thread
     * that fails ends the process with status 1: a round would otherwise only time out, minutes later.
     */
    static KafkaStreams start(String bootstrap, RegistrySerdes serdes, String applicationId, String stateDir)
            throws Exception {
        Properties props = LifecycleBenchmark.streamsConfig();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir);
        LifecycleBenchmark.log("Kafka Streams settings: %s", new java.util.TreeMap<>(props));
        KafkaStreams streams = new KafkaStreams(LaharTopology.build(serdes), props);
        streams.setUncaughtExceptionHandler(e -> {
            System.err.println("bench: the stream thread failed: " + e);
            e.printStackTrace();
            Thread.ofPlatform().start(() -> System.exit(1));
            return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        });
        streams.start();
        LifecycleBenchmark.await(
                Duration.ofMinutes(2), "the topology to run", () -> streams.state() == KafkaStreams.State.RUNNING);
        return streams;
    }

    /** The arguments {@link #main} takes. */
    static List<String> args(String bootstrap, String registryUrl, String applicationId, String stateDir) {
        return List.of(bootstrap, registryUrl, applicationId, stateDir);
    }
}
