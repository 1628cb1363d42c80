package io.lahar.streams;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.schema.CommandResult;
import io.lahar.schema.DeadLetter;
import io.lahar.schema.JobCommand;
import io.lahar.schema.JobStatusRecord;
import io.lahar.schema.SubmitJob;
import io.lahar.schema.Topics;
import io.lahar.schema.serde.RegistrySerdes;
import io.lahar.streams.flow.FlowTopology;
import io.lahar.testkit.LaharInfra;
import io.lahar.testkit.WithLaharInfra;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Properties;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The topology under TopologyTestDriver: no broker, but the real registry, since the Avro serdes
 * resolve schemas through it. Fast feedback on processing, ordering and the dead-letter path.
 */
@WithLaharInfra
class TopologyDriverIT {

    /** Its own state directory: the default one (/tmp/kafka-streams) is shared by every build on the machine. */
    @TempDir
    Path stateDir;

    @Test
    void commandsAreAnsweredAndGarbageIsDeadLettered(LaharInfra infra) throws Exception {
        RegistrySerdes serdes = new RegistrySerdes(infra.registryUrl());
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "driver-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        try (TopologyTestDriver driver = new TopologyTestDriver(LaharTopology.build(serdes), props)) {
            // The streams-app's own serdes (registry calls bounded in time): Apicurio's wait without a bound.
            Serializer<JobCommand> serializer = serdes.value(JobCommand.class).serializer();
            TestInputTopic<String, JobCommand> commands =
                    driver.createInputTopic(Topics.JOB_COMMANDS.name(), new StringSerializer(), serializer);
            TestInputTopic<String, byte[]> raw = driver.createInputTopic(
                    Topics.JOB_COMMANDS.name(), new StringSerializer(), new ByteArraySerializer());
            Deserializer<CommandResult> resultDeserializer =
                    serdes.value(CommandResult.class).deserializer();
            TestOutputTopic<String, CommandResult> results = driver.createOutputTopic(
                    Topics.COMMAND_RESULTS.name(), new StringDeserializer(), resultDeserializer);
            Deserializer<JobStatusRecord> statusDeserializer =
                    serdes.value(JobStatusRecord.class).deserializer();
            TestOutputTopic<String, JobStatusRecord> status =
                    driver.createOutputTopic(Topics.JOB_STATUS.name(), new StringDeserializer(), statusDeserializer);
            Deserializer<DeadLetter> letterDeserializer =
                    serdes.value(DeadLetter.class).deserializer();
            TestOutputTopic<String, DeadLetter> letters =
                    driver.createOutputTopic(Topics.DEAD_LETTERS.name(), new StringDeserializer(), letterDeserializer);

            String tfJob = Files.readString(Path.of("../examples/tf-job.yaml"));
            commands.pipeInput("default/tf-job", command("r1", "tf-job", tfJob));
            raw.pipeInput("default/junk", "not avro".getBytes(StandardCharsets.UTF_8));
            commands.pipeInput("default/tf-job", command("r2", "tf-job", tfJob));
            commands.pipeInput("default/tf-job", command("r1", "tf-job", tfJob));

            var answers = results.readValuesToList();
            assertThat(answers)
                    .extracting(CommandResult::getRequestId, CommandResult::getAccepted)
                    .containsExactly(
                            org.assertj.core.groups.Tuple.tuple("r1", true),
                            org.assertj.core.groups.Tuple.tuple("r2", false),
                            org.assertj.core.groups.Tuple.tuple("r1", true));
            assertThat(answers.get(1).getViolations())
                    .extracting(v -> v.getPath() + ": " + v.getMessage())
                    .containsExactly("metadata.name: job \"default/tf-job\" already exists");
            assertThat(status.readValuesToList())
                    .singleElement()
                    .satisfies(
                            s -> assertThat(s.getStatus().getState().getPhase()).isEqualTo("Pending"));
            // No JobFlow made tf-job: its status is not handed to the flow engine.
            assertThat(driver.createOutputTopic(
                                    "driver-test-" + FlowTopology.REPARTITION + "-repartition",
                                    new StringDeserializer(),
                                    new ByteArrayDeserializer())
                            .readKeyValuesToList())
                    .isEmpty();
            assertThat(letters.readValuesToList())
                    .singleElement()
                    .satisfies(d -> assertThat(d.getTopic()).isEqualTo(Topics.JOB_COMMANDS.name()));
        }
    }

    private static JobCommand command(String requestId, String name, String manifest) {
        return JobCommand.newBuilder()
                .setRequestId(requestId)
                .setSender("test")
                .setNamespace("default")
                .setName(name)
                .setTime(Instant.parse("2026-11-29T10:00:00Z"))
                .setCommand(new SubmitJob(manifest))
                .build();
    }
}
