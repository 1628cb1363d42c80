package io.lahar.bridge.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class OffsetLedgerTest {

    private static final TopicPartition INTENTS = new TopicPartition("lahar.pod-intents", 2);
    private static final TopicPartition DECISIONS = new TopicPartition("lahar.scheduler-decisions", 2);

    private final OffsetLedger ledger = new OffsetLedger();
    private final Set<String> waiting = new HashSet<>();

    private Map<TopicPartition, OffsetAndMetadata> commit() {
        Map<TopicPartition, OffsetAndMetadata> offsets =
                ledger.commitable((topic, key) -> waiting.contains(topic + ":" + key));
        ledger.committed(offsets);
        return offsets;
    }

    @Test
    void withNothingWaitingEverythingHandledIsCommitted() {
        ledger.handled(INTENTS, 10);
        ledger.handled(INTENTS, 11);
        assertThat(commit()).containsExactlyEntriesOf(Map.of(INTENTS, new OffsetAndMetadata(12)));
        assertThat(commit()).isEmpty();
    }

    @Test
    void aWaitingRecordHoldsItsPartitionUntilItsWorkIsDone() {
        ledger.handled(DECISIONS, 5);
        ledger.hold(DECISIONS, "ns/job-w-0", 5);
        waiting.add("lahar.scheduler-decisions:ns/job-w-0");
        ledger.handled(DECISIONS, 6);
        ledger.handled(INTENTS, 3);

        assertThat(commit())
                .containsOnly(
                        Map.entry(DECISIONS, new OffsetAndMetadata(5)), Map.entry(INTENTS, new OffsetAndMetadata(4)));
        ledger.handled(DECISIONS, 7);
        assertThat(commit()).isEmpty();
        assertThat(ledger.heldCount()).isEqualTo(1);

        waiting.clear();
        assertThat(commit()).containsExactlyEntriesOf(Map.of(DECISIONS, new OffsetAndMetadata(8)));
        assertThat(ledger.heldCount()).isZero();
    }

    @Test
    void theOldestWaitingRecordOfAPartitionWinsAndALaterOneForTheSameKeyReplacesIt() {
        waiting.addAll(List.of("lahar.pod-intents:ns/a", "lahar.pod-intents:ns/b"));
        ledger.handled(INTENTS, 20);
        ledger.hold(INTENTS, "ns/a", 20);
        ledger.handled(INTENTS, 21);
        ledger.hold(INTENTS, "ns/b", 21);
        ledger.handled(INTENTS, 22);
        assertThat(commit()).containsExactlyEntriesOf(Map.of(INTENTS, new OffsetAndMetadata(20)));

        // A newer create for a waits in place of the old one: the old record's work is superseded.
        ledger.handled(INTENTS, 23);
        ledger.hold(INTENTS, "ns/a", 23);
        assertThat(commit()).containsExactlyEntriesOf(Map.of(INTENTS, new OffsetAndMetadata(21)));
        waiting.remove("lahar.pod-intents:ns/b");
        assertThat(commit()).containsExactlyEntriesOf(Map.of(INTENTS, new OffsetAndMetadata(23)));
    }

    @Test
    void forgottenPartitionsAreNeitherCommittedNorHeld() {
        waiting.add("lahar.pod-intents:ns/a");
        ledger.handled(INTENTS, 1);
        ledger.hold(INTENTS, "ns/a", 1);
        ledger.forget(List.of(INTENTS));
        assertThat(commit()).isEmpty();
        assertThat(ledger.heldCount()).isZero();
    }

    @Test
    void aRecordWhoseCallsAreUnderWayHoldsItsPartitionWhateverFinishedAfterIt() {
        ledger.started(INTENTS, 30);
        ledger.started(INTENTS, 31);
        ledger.started(INTENTS, 32);
        ledger.finished(INTENTS, 32);
        ledger.finished(INTENTS, 31);
        assertThat(commit()).containsExactlyEntriesOf(Map.of(INTENTS, new OffsetAndMetadata(30)));
        assertThat(ledger.underWayCount()).isEqualTo(1);

        ledger.handled(INTENTS, 33); // a record skipped on the loop after it
        assertThat(commit()).isEmpty();

        ledger.finished(INTENTS, 30);
        assertThat(commit()).containsExactlyEntriesOf(Map.of(INTENTS, new OffsetAndMetadata(34)));
        assertThat(ledger.underWayCount()).isZero();
    }

    @Test
    void aRecordDoneButWaitingStillHoldsOnceItsCallsHaveCompleted() {
        waiting.add("lahar.scheduler-decisions:ns/p");
        ledger.started(DECISIONS, 7);
        ledger.started(DECISIONS, 8);
        ledger.finished(DECISIONS, 7);
        ledger.hold(DECISIONS, "ns/p", 7);
        ledger.finished(DECISIONS, 8);
        assertThat(commit()).containsExactlyEntriesOf(Map.of(DECISIONS, new OffsetAndMetadata(7)));
        waiting.clear();
        assertThat(commit()).containsExactlyEntriesOf(Map.of(DECISIONS, new OffsetAndMetadata(9)));
    }

    @Test
    void outcomesOfAPartitionNoLongerReadChangeNothing() {
        ledger.started(INTENTS, 40);
        ledger.forget(List.of(INTENTS));
        assertThat(ledger.owns(INTENTS)).isFalse();
        ledger.finished(INTENTS, 40);
        assertThat(commit()).isEmpty();
        assertThat(ledger.underWayCount()).isZero();
    }
}
