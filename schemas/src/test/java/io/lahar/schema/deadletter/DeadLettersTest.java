package io.lahar.schema.deadletter;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.schema.DeadLetter;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

class DeadLettersTest {

    @Test
    void aLetterKeepsWhereTheRecordWasItsBytesAndTheWholeCauseChain() {
        ConsumerRecord<String, byte[]> record =
                new ConsumerRecord<>("lahar.pod-intents", 3, 42L, "team/job", new byte[] {9, 9});
        DeadLetter letter = DeadLetters.of(
                "k8s-bridge", record, new IllegalArgumentException("value: cannot decode", new java.io.EOFException()));

        assertThat(letter.getTopic()).isEqualTo("lahar.pod-intents");
        assertThat(letter.getPartition()).isEqualTo(3);
        assertThat(letter.getOffset()).isEqualTo(42L);
        assertThat(letter.getTimestamp()).isEqualTo(Instant.ofEpochMilli(record.timestamp()));
        assertThat(StandardCharsets.UTF_8.decode(letter.getKey().duplicate()).toString())
                .isEqualTo("team/job");
        assertThat(letter.getValue().remaining()).isEqualTo(2);
        assertThat(letter.getProcessor()).isEqualTo("k8s-bridge");
        assertThat(letter.getError())
                .isEqualTo("java.lang.IllegalArgumentException: value: cannot decode"
                        + " <- caused by java.io.EOFException");
        assertThat(DeadLetters.describe(letter))
                .isEqualTo("dead-lettering lahar.pod-intents-3@42 key \"team/job\": " + letter.getError());
    }

    @Test
    void aLetterAlwaysFitsInOneRecordWhateverTheInput() {
        byte[] huge = new byte[DeadLetters.MAX_VALUE_BYTES + 10];
        DeadLetter letter =
                DeadLetters.of("streams-app", "lahar.job-commands", 1, 7L, 0L, null, huge, "x".repeat(20_000));

        assertThat(letter.getValue().remaining()).isEqualTo(DeadLetters.MAX_VALUE_BYTES);
        assertThat(letter.getError()).hasSize(DeadLetters.MAX_REASON_CHARS).endsWith("...");
        DeadLetter cut = DeadLetters.of("streams-app", "lahar.job-commands", 1, 7L, 0L, null, huge, "too big");
        assertThat(cut.getError())
                .isEqualTo("too big (value cut to its first " + DeadLetters.MAX_VALUE_BYTES + " of " + huge.length
                        + " bytes; the whole record is at lahar.job-commands-1@7)");
        assertThat(DeadLetters.describe(cut)).contains("key (none)");
    }

    @Test
    void anOutageIsToldFromPoison() {
        assertThat(Failures.isTransient(new RuntimeException(new java.net.ConnectException("refused"))))
                .isTrue();
        assertThat(Failures.isTransient(new TransientFailure("registry away", null)))
                .isTrue();
        assertThat(Failures.isTransient(new org.apache.kafka.common.errors.TimeoutException("broker away")))
                .isTrue();
        assertThat(Failures.isTransient(new java.util.concurrent.ExecutionException(
                        new io.vertx.core.http.HttpClosedException("Connection was closed"))))
                .as("a connection closed under a request, as at the cluster's or the registry's restart")
                .isTrue();
        assertThat(Failures.isTransient(new java.nio.channels.ClosedChannelException()))
                .isTrue();
        assertThat(Failures.isTransient(new IllegalArgumentException("key: does not match")))
                .isFalse();
        assertThat(Failures.isTransient(new StackOverflowError())).isFalse();
    }
}
