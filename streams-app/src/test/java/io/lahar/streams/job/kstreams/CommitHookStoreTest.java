package io.lahar.streams.job.kstreams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The store's side of the hook: which of Kafka Streams' calls its listener hears as what. */
class CommitHookStoreTest {

    @TempDir
    Path stateDir;

    private CommitHookStore open(List<String> heard) {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "commit-hook-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        var context = new MockProcessorContext<>(props, new TaskId(0, 0), stateDir.toFile());
        CommitHookStore store = CommitHookStore.builder(Stores.keyValueStoreBuilder(
                        Stores.persistentKeyValueStore("s"), Serdes.String(), Serdes.ByteArray()))
                .withLoggingDisabled()
                .build();
        store.init(context.getStateStoreContext(), store);
        store.listen(new TaskCommit.Listener() {
            @Override
            public void beforeCommit() {
                // What a listener writes here is what the commit's changelog holds.
                store.inner().put("k", ("commit " + heard.size()).getBytes());
                heard.add("commit");
            }

            @Override
            public void discard() {
                heard.add("discard");
            }
        });
        return store;
    }

    @Test
    void theListenerHearsEachCommitAndEachDropOfWhatTheTaskDidNotCommit() {
        List<String> heard = new ArrayList<>();
        CommitHookStore store = open(heard);

        store.flushCache(); // what Kafka Streams calls before it commits the task
        assertThat(heard).containsExactly("commit");
        assertThat(new String(store.get("k")))
                .as("reads see what the listener wrote")
                .isEqualTo("commit 0");

        store.flush(); // a checkpoint: whatever is still held is written first
        store.clearCache(); // a recycled task
        store.close(); // closed dirty
        assertThat(heard).containsExactly("commit", "commit", "discard", "discard");
    }

    @Test
    void itsInnerStoreCannotCache() {
        assertThatThrownBy(() -> CommitHookStore.builder(Stores.keyValueStoreBuilder(
                                Stores.persistentKeyValueStore("s"), Serdes.String(), Serdes.ByteArray()))
                        .withCachingEnabled())
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("changelog");
    }
}
