package io.lahar.streams.rest;

import io.lahar.schema.CommandResult;
import io.lahar.schema.CronJobCommand;
import io.lahar.schema.FlowCommand;
import io.lahar.schema.JobCommand;
import io.lahar.schema.KafkaClients;
import io.lahar.schema.Topics;
import io.lahar.schema.serde.RegistrySerdes;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RecordDeserializationException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.jboss.logging.Logger;

/**
 * Commands out, replies back over Kafka. The caller chooses the request id, registers for its
 * answer, then produces the command; one shared reader follows {@code lahar.command-results}
 * from its end (positioned at start-up, before any command is sent) and completes the waiting
 * future whose request id a result carries. Results for other senders are simply skipped.
 */
@ApplicationScoped
public class CommandGateway {

    private static final Logger LOG = Logger.getLogger(CommandGateway.class);
    /** The first pause after the result reader failed; doubled while it fails again, up to {@link #MAX_PAUSE}. */
    static final Duration FIRST_PAUSE = Duration.ofSeconds(1);

    static final Duration MAX_PAUSE = Duration.ofSeconds(30);

    @Inject
    KafkaClients kafka;

    @Inject
    RegistrySerdes serdes;

    private final Map<String, CompletableFuture<CommandResult>> waiting = new ConcurrentHashMap<>();
    private final CountDownLatch positioned = new CountDownLatch(1);
    Producer<String, JobCommand> producer;
    /** Flow commands (JobFlow, JobTemplate) go to lahar.flow-commands; their answers come back the same way. */
    Producer<String, FlowCommand> flowProducer;
    /** CronJob commands go to lahar.cronjob-commands. */
    Producer<String, CronJobCommand> cronProducer;

    Consumer<String, CommandResult> consumer;
    private Thread reader;
    private volatile boolean running = true;

    void start(@Observes StartupEvent event) {
        Map<String, Object> producerConfig = new HashMap<>();
        producerConfig.put(ProducerConfig.ACKS_CONFIG, "all");
        producerConfig.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        producerConfig.put(ProducerConfig.CLIENT_ID_CONFIG, "lahar-rest-commands");
        producer = kafka.producer(
                producerConfig,
                new StringSerializer(),
                serdes.value(JobCommand.class).serializer());
        producerConfig.put(ProducerConfig.CLIENT_ID_CONFIG, "lahar-rest-flow-commands");
        flowProducer = kafka.producer(
                producerConfig,
                new StringSerializer(),
                serdes.value(FlowCommand.class).serializer());
        producerConfig.put(ProducerConfig.CLIENT_ID_CONFIG, "lahar-rest-cronjob-commands");
        cronProducer = kafka.producer(
                producerConfig,
                new StringSerializer(),
                serdes.value(CronJobCommand.class).serializer());

        Map<String, Object> consumerConfig = new HashMap<>();
        // Only committed answers: the streams-app writes them in exactly-once transactions.
        consumerConfig.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        consumerConfig.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        consumerConfig.put(ConsumerConfig.CLIENT_ID_CONFIG, "lahar-rest-results");
        consumer = kafka.consumer(
                consumerConfig,
                new StringDeserializer(),
                serdes.value(CommandResult.class).deserializer());
        startReader();
    }

    void startReader() {
        reader = Thread.ofPlatform().name("lahar-rest-results").daemon().start(this::readResults);
    }

    void stop(@Observes ShutdownEvent event) {
        running = false;
        if (consumer != null) {
            consumer.wakeup();
        }
        if (reader != null) {
            // Ends a pause after a failure too.
            reader.interrupt();
            try {
                reader.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        KafkaClients.close(producer);
        KafkaClients.close(flowProducer);
        KafkaClients.close(cronProducer);
        waiting.values().forEach(f -> f.completeExceptionally(new IllegalStateException("shutting down")));
    }

    /**
     * Sends {@code command} keyed by its job and waits for its result.
     *
     * @throws TimeoutException when no answer came within {@code timeout}
     * @throws NotSent when the command could not be written
     */
    public CommandResult send(JobCommand command, Duration timeout) throws TimeoutException, InterruptedException {
        return sendAndAwait(
                producer,
                Topics.JOB_COMMANDS.name(),
                Topics.jobKey(command.getNamespace(), command.getName()),
                command.getRequestId(),
                command,
                timeout);
    }

    /**
     * Sends a flow command keyed by its JobFlow or JobTemplate and waits for its result.
     *
     * @throws TimeoutException when no answer came within {@code timeout}
     * @throws NotSent when the command could not be written
     */
    public CommandResult send(FlowCommand command, Duration timeout) throws TimeoutException, InterruptedException {
        return sendAndAwait(
                flowProducer,
                Topics.FLOW_COMMANDS.name(),
                Topics.jobKey(command.getNamespace(), command.getName()),
                command.getRequestId(),
                command,
                timeout);
    }

    /**
     * Sends a CronJob command keyed by its CronJob and waits for its result.
     *
     * @throws TimeoutException when no answer came within {@code timeout}
     */
    public CommandResult send(CronJobCommand command, Duration timeout) throws TimeoutException, InterruptedException {
        return sendAndAwait(
                cronProducer,
                Topics.CRONJOB_COMMANDS.name(),
                Topics.jobKey(command.getNamespace(), command.getName()),
                command.getRequestId(),
                command,
                timeout);
    }

    /** Every kind of command is answered on lahar.command-results by request id. */
    private <V> CommandResult sendAndAwait(
            Producer<String, V> to, String topic, String key, String requestId, V command, Duration timeout)
            throws TimeoutException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        if (!positioned.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new TimeoutException("the result reader is not positioned yet");
        }
        CompletableFuture<CommandResult> answer = waiting.computeIfAbsent(requestId, id -> new CompletableFuture<>());
        try {
            to.send(new ProducerRecord<>(topic, key, command))
                    .get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            return answer.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            throw new NotSent(requestId, e.getCause());
        } finally {
            waiting.remove(requestId);
        }
    }

    /** The command could not be written to its topic: too large for a record, or the broker did not take it. */
    public static final class NotSent extends RuntimeException {
        NotSent(String requestId, Throwable cause) {
            super("command " + requestId + " was not sent: " + cause.getMessage(), cause);
        }

        /** The broker (or the producer) refused the record for its size: retrying will not help. */
        public boolean tooLarge() {
            return getCause() instanceof RecordTooLargeException;
        }
    }

    /** One poll; a result that does not decode is skipped (it is no answer we could match). */
    private Iterable<ConsumerRecord<String, CommandResult>> poll() {
        try {
            return consumer.poll(Duration.ofMillis(200));
        } catch (RecordDeserializationException e) {
            LOG.warnf("skipping undecodable result at %s@%d: %s", e.topicPartition(), e.offset(), e.getMessage());
            consumer.seek(e.topicPartition(), e.offset() + 1);
            return List.of();
        }
    }

    /**
     * Follows the results until the service stops. A failure (the broker unreachable past the
     * client's timeout while the reader positions itself, say) is waited out with a growing pause
     * and the reading goes on, positioning first if it was not yet. Why: a reader that stopped on it
     * left every later command waiting its full timeout for an answer nobody read, for good, while
     * the service looked ready.
     */
    private void readResults() {
        Duration pause = FIRST_PAUSE;
        try {
            while (running) {
                try {
                    if (positioned.getCount() > 0) {
                        position();
                    }
                    for (ConsumerRecord<String, CommandResult> record : poll()) {
                        CommandResult result = record.value();
                        if (result != null) {
                            CompletableFuture<CommandResult> future = waiting.get(result.getRequestId());
                            if (future != null) {
                                future.complete(result);
                            }
                        }
                    }
                    pause = FIRST_PAUSE;
                } catch (WakeupException e) {
                    throw e;
                } catch (RuntimeException e) {
                    if (!running) {
                        break;
                    }
                    LOG.warnf("reading the command results failed; reading on in %d ms: %s", pause.toMillis(), e);
                    Thread.sleep(pause.toMillis());
                    pause = pause.multipliedBy(2).compareTo(MAX_PAUSE) > 0 ? MAX_PAUSE : pause.multipliedBy(2);
                }
            }
        } catch (WakeupException e) {
            if (running) {
                LOG.error("result reader woken unexpectedly", e);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            KafkaClients.close(consumer);
        }
    }

    /** At the end of every partition of the results, before any command is sent: no answer after a send is missed. */
    private void position() throws InterruptedException {
        // The topic may still be being created by TopicBootstrap at start-up.
        List<TopicPartition> partitions = List.of();
        while (running && partitions.isEmpty()) {
            partitions = consumer.partitionsFor(Topics.COMMAND_RESULTS.name()).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition()))
                    .toList();
            if (partitions.isEmpty()) {
                Thread.sleep(200);
            }
        }
        consumer.assign(partitions);
        consumer.seekToEnd(partitions);
        // Resolve the lazy seek now, so an answer produced after any later send is never missed.
        partitions.forEach(consumer::position);
        positioned.countDown();
    }
}
