package io.lahar.streams.kafka;

import io.lahar.streams.BrokerApp;
import io.lahar.testkit.LaharInfra;
import java.nio.file.Path;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsConfig;

/** A small test topology of bytes on the shared broker ({@link BrokerApp}'s settings), over topics of its own. */
final class ByteStreams {

    private ByteStreams() {}

    static Properties settings(LaharInfra infra, String applicationId, Path stateDir) {
        Properties props = BrokerApp.config(infra, applicationId, stateDir);
        // Its input topics are its own: everything on them is the test's, even what came before the assignment.
        props.put(StreamsConfig.consumerPrefix(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), "earliest");
        props.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.ByteArraySerde.class);
        props.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.ByteArraySerde.class);
        return props;
    }
}
