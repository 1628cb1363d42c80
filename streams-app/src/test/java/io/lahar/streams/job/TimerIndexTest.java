package io.lahar.streams.job;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.OptionalLong;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class TimerIndexTest {

    private TimerIndex index;

    @BeforeEach
    void store() {
        KeyValueStore<String, byte[]> store = Stores.keyValueStoreBuilder(
                        Stores.inMemoryKeyValueStore("t"), Serdes.String(), Serdes.ByteArray())
                .withLoggingDisabled()
                .build();
        store.init(new MockProcessorContext<>().getStateStoreContext(), store);
        index = new TimerIndex(store);
    }

    @Test
    void aTickFindsTheDueJobsEarliestFirstWithinItsBudget() {
        index.update("ns/c", OptionalLong.empty(), OptionalLong.of(3_000));
        index.update("ns/a", OptionalLong.empty(), OptionalLong.of(1_000));
        index.update("ns/b", OptionalLong.empty(), OptionalLong.of(2_000));
        index.update("ns/late", OptionalLong.empty(), OptionalLong.of(10_000_000_000L));
        index.clock(2_500);

        assertThat(index.due(2_000, 10)).extracting(TimerIndex.Due::job).containsExactly("ns/a", "ns/b");
        assertThat(index.due(3_000, 2)).extracting(TimerIndex.Due::job).containsExactly("ns/a", "ns/b");
        assertThat(index.due(999, 10)).isEmpty();
        assertThat(index.clock()).hasValue(2_500);
    }

    @Test
    void aJobHasOneEntryThatMovesWithItsNextDueTime() {
        index.update("ns/a", OptionalLong.empty(), OptionalLong.of(1_000));
        index.update("ns/a", OptionalLong.of(1_000), OptionalLong.of(5_000));
        assertThat(index.due(4_000, 10)).isEmpty();
        assertThat(index.due(5_000, 10)).containsExactly(new TimerIndex.Due(5_000, "ns/a"));
        index.update("ns/a", OptionalLong.of(5_000), OptionalLong.empty());
        assertThat(index.due(Long.MAX_VALUE / 2, 10)).isEmpty();

        index.update("ns/b", OptionalLong.empty(), OptionalLong.of(7));
        index.remove(new TimerIndex.Due(7, "ns/b"));
        assertThat(index.due(10, 10)).isEmpty();
    }
}
