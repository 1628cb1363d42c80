package io.lahar.cli.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class InputMergeTest {

    private static ReplayInput in(String topic, long offset, long timestamp) {
        return new ReplayInput(topic, 0, offset, timestamp, "ns/job", null);
    }

    @Test
    void takesTheHeadWithTheLowestTimestampAndKeepsEachPartitionInOffsetOrder() {
        List<ReplayInput> commands = List.of(in("c", 0, 10), in("c", 1, 40));
        // Out of timestamp order inside one partition: a partition is still read in offset order.
        List<ReplayInput> pods = List.of(in("p", 0, 30), in("p", 1, 20), in("p", 2, 50));
        List<ReplayInput> clock = List.of(in("t", 0, 25));

        List<ReplayInput> merged = InputMerge.merge(List.of(commands, pods, clock));

        assertThat(merged)
                .extracting(ReplayInput::coordinates)
                .containsExactly("c/0@0", "t/0@0", "p/0@0", "p/0@1", "c/0@1", "p/0@2");
    }

    @Test
    void aTieGoesToTheQueueListedFirst() {
        List<ReplayInput> merged = InputMerge.merge(List.of(List.of(in("c", 0, 5)), List.of(in("p", 0, 5))));

        assertThat(merged).extracting(ReplayInput::topic).containsExactly("c", "p");
    }
}
