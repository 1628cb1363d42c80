package io.lahar.streams.rest;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.schema.CommandResult;
import io.lahar.schema.JobCommand;
import io.lahar.schema.SubmitJob;
import io.lahar.schema.Topics;
import io.lahar.schema.codec.JobCommandCodec;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * The reader of the command results fails (the broker out of reach past the client's timeout while
 * it positions itself at start-up) and reads on after a pause: the commands sent afterwards are
 * answered, not each left to wait its full timeout for good.
 */
class CommandGatewayTest {

    private static final TopicPartition RESULTS = new TopicPartition(Topics.COMMAND_RESULTS.name(), 0);

    /** The results' consumer, whose first look for the topic fails as an unreachable broker's does. */
    private static final class FirstLookFails extends MockConsumer<String, CommandResult> {
        final AtomicInteger looks = new AtomicInteger();

        FirstLookFails() {
            super("latest");
        }

        @Override
        public synchronized List<PartitionInfo> partitionsFor(String topic) {
            if (looks.getAndIncrement() == 0) {
                throw new TimeoutException("Timeout expired while fetching topic metadata");
            }
            return super.partitionsFor(topic);
        }
    }

    @Test
    void aResultReaderThatFailedReadsOnAndLaterCommandsAreAnswered() throws Exception {
        FirstLookFails results = new FirstLookFails();
        results.updatePartitions(
                RESULTS.topic(), List.of(new PartitionInfo(RESULTS.topic(), 0, null, new Node[0], new Node[0])));
        results.updateBeginningOffsets(Map.of(RESULTS, 0L));
        results.updateEndOffsets(Map.of(RESULTS, 0L));
        MockProducer<String, JobCommand> commands =
                new MockProducer<>(true, null, new StringSerializer(), (topic, command) -> new byte[0]);
        CommandGateway gateway = new CommandGateway();
        gateway.consumer = results;
        gateway.producer = commands;
        gateway.startReader();
        ExecutorService calls = Executors.newVirtualThreadPerTaskExecutor();
        try {
            Exchange exchange = Exchange.of("r-1");
            Future<CommandResult> answer = calls.submit(() -> gateway.send(exchange.command(), Duration.ofSeconds(20)));
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (commands.history().isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            // Sent once the reader stood at the end of the results: the streams-app's answer.
            assertThat(commands.history()).hasSize(1);
            results.schedulePollTask(() ->
                    results.addRecord(new ConsumerRecord<>(RESULTS.topic(), 0, 0L, "default/j", exchange.answer())));

            assertThat(answer.get(30, TimeUnit.SECONDS).getAccepted()).isTrue();
            assertThat(results.looks.get()).as("looked for the topic again").isGreaterThan(1);
        } finally {
            calls.shutdownNow();
            gateway.stop(null);
        }
    }

    /** A SubmitJob of default/j and the streams-app's acceptance of it. */
    private record Exchange(JobCommand command, CommandResult answer) {
        static Exchange of(String requestId) {
            JobCommand command = JobCommand.newBuilder()
                    .setRequestId(requestId)
                    .setSender("test")
                    .setNamespace("default")
                    .setName("j")
                    .setTime(Instant.EPOCH)
                    .setCommand(new SubmitJob("{}"))
                    .build();
            // The codec's answer echoes the command's request, job and time; only its verdict differs.
            return new Exchange(
                    command,
                    CommandResult.newBuilder(JobCommandCodec.rejection(command, List.of()))
                            .setAccepted(true)
                            .build());
        }
    }
}
