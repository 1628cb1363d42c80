package io.lahar.system;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.lahar.schema.JobCommand;
import io.lahar.schema.JobTransition;
import io.lahar.schema.SubmitJob;
import io.lahar.schema.TopicBootstrap;
import io.lahar.schema.Topics;
import io.lahar.schema.Topics.TopicSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The runnable clients of examples/clients/ against the running system. The Node
 * one (kafkajs, no compression plugin) and the Python one (Debian's confluent-kafka and avro) each
 * submit a Job, print its CommandResult and follow its phases on lahar.job-status to Completed: the
 * phases they print are the Job's phase changes on lahar.job-transitions. Their dependencies are
 * installed here (npm into target/, apt-get when the Python packages are missing); a client whose
 * dependencies cannot be installed is skipped with a loud message, never silently. And the codec
 * that lets kafkajs read at all: every topic of the contract is stored in gzip, and the topic
 * bootstrap gives the codec to a topic that lacks it.
 */
@ExtendWith(LaharSystemExtension.class)
class ClientExamplesIT {

    private static final Duration INSTALL_TIMEOUT = Duration.ofMinutes(3);
    private static final Duration RUN_TIMEOUT = Duration.ofSeconds(150);
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void theNodeClientSubmitsAJobReadsItsResultAndFollowsItToCompleted(LaharSystem system) throws IOException {
        Path dir = system.dir.resolve("clients/node");
        Files.createDirectories(dir);
        for (String file : List.of("package.json", "package-lock.json")) {
            Files.copy(examples(system).resolve("node").resolve(file), dir.resolve(file));
        }
        ClientProcess install = ClientProcess.run(
                dir, dir.resolve("npm-ci.log"), INSTALL_TIMEOUT, "npm", "ci", "--no-audit", "--no-fund");
        assumeInstalled(install.exit() == 0, "the Node client", install.toString());
        // The script as it is in the repository (it finds the contract's .avsc from there), its
        // packages from here.
        Path script = examples(system).resolve("node/submit-and-follow.js");
        registerTheCommandSchema(system);

        ClientProcess run = ClientProcess.run(
                dir,
                dir.resolve("run.log"),
                RUN_TIMEOUT,
                Map.of("NODE_PATH", dir.resolve("node_modules").toString()),
                "node",
                script.toString(),
                "--bootstrap",
                system.infra.bootstrapServers(),
                "--registry",
                system.infra.ccompatUrl(),
                "--timeout",
                "120",
                manifest(system, "node-hello").toString());

        assertFollowedToCompleted(system, "node-hello", run);
    }

    @Test
    void thePythonClientSubmitsAJobReadsItsResultAndFollowsItToCompleted(LaharSystem system) throws IOException {
        String python = "/usr/bin/python3";
        Path dir = system.dir.resolve("clients/python");
        ClientProcess check = ClientProcess.run(
                dir.getParent(),
                dir.resolve("import.log"),
                Duration.ofSeconds(30),
                python,
                "-c",
                "import confluent_kafka, avro");
        if (check.exit() != 0) {
            ClientProcess install = ClientProcess.run(
                    dir.getParent(),
                    dir.resolve("apt-get.log"),
                    INSTALL_TIMEOUT,
                    "sh",
                    "-c",
                    "apt-get update -qq && apt-get install -y -qq python3-confluent-kafka python3-avro");
            assumeInstalled(install.exit() == 0, "the Python client", check + "\n" + install);
        }

        registerTheCommandSchema(system);
        ClientProcess run = ClientProcess.run(
                dir,
                dir.resolve("run.log"),
                RUN_TIMEOUT,
                python,
                examples(system).resolve("python/submit_and_follow.py").toString(),
                "--bootstrap",
                system.infra.bootstrapServers(),
                "--registry",
                system.infra.ccompatUrl(),
                "--timeout",
                "120",
                manifest(system, "python-hello").toString());

        assertFollowedToCompleted(system, "python-hello", run);
    }

    @Test
    void everyTopicOfTheContractIsStoredInGzipAndTheBootstrapGivesTheCodecToATopicWithout(LaharSystem system)
            throws Exception {
        try (Admin admin =
                Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, system.infra.bootstrapServers()))) {
            assertThat(compression(admin, Topics.all()))
                    .as("compression.type of every topic")
                    .allSatisfy((topic, codec) -> assertThat(codec).as(topic).isEqualTo("gzip"));

            ConfigResource deadLetters = new ConfigResource(ConfigResource.Type.TOPIC, Topics.DEAD_LETTERS.name());
            admin.incrementalAlterConfigs(Map.of(
                            deadLetters,
                            List.of(new AlterConfigOp(
                                    new ConfigEntry(TopicConfig.COMPRESSION_TYPE_CONFIG, ""),
                                    AlterConfigOp.OpType.DELETE))))
                    .all()
                    .get();
            assertThat(compression(admin, List.of(Topics.DEAD_LETTERS))).containsValue("producer");

            TopicBootstrap.ensureTopics(system.infra.bootstrapServers());

            assertThat(compression(admin, List.of(Topics.DEAD_LETTERS))).containsValue("gzip");
        }
    }

    private static void assertFollowedToCompleted(LaharSystem system, String job, ClientProcess run) {
        String key = system.key(job);
        List<String> phases = run.lines().stream()
                .filter(l -> l.startsWith("phase: "))
                .map(l -> l.substring("phase: ".length()).split(" ")[0])
                .toList();
        List<String> transitions = system.records.transitions(key).stream()
                .map(JobTransition::getTo)
                .toList();

        assertThat(run.exit()).as(run.toString() + system.logs()).isZero();
        assertThat(run.lines())
                .as(run.toString())
                .containsSubsequence("accepted: " + key + " (SubmitJob)", "final phase: Completed");
        assertThat(run.lines()).as(run.toString()).anyMatch(l -> l.startsWith("submitted " + key + " (request "));
        assertThat(phases)
                .as(run.toString())
                .startsWith("Pending")
                .contains("Running")
                .endsWith("Completed");
        assertThat(phases)
                .as("the phases printed are the Job's transitions\n" + run)
                .isEqualTo(collapsed(transitions));
    }

    /**
     * The clients write with the schema Lahar registered for lahar.job-commands and never register
     * one (docs/topics.md): on a fresh registry this test's clients may write the topic first, so
     * it is registered here as any Lahar writer does with its first record (serialized, not sent).
     */
    private static void registerTheCommandSchema(LaharSystem system) {
        system.serdes
                .value(JobCommand.class)
                .serializer()
                .serialize(
                        Topics.JOB_COMMANDS.name(),
                        JobCommand.newBuilder()
                                .setRequestId("schema")
                                .setSender("system-tests")
                                .setNamespace(system.namespace)
                                .setName("schema")
                                .setTime(Instant.now())
                                .setCommand(new SubmitJob("{}"))
                                .build());
    }

    /** The list without consecutive repeats. */
    private static List<String> collapsed(List<String> phases) {
        List<String> out = new ArrayList<>();
        for (String p : phases) {
            if (out.isEmpty() || !out.get(out.size() - 1).equals(p)) {
                out.add(p);
            }
        }
        return out;
    }

    /** A two-pod Job for this run's namespace and scheduler, its pods done after a second, as a JSON file. */
    private static Path manifest(LaharSystem system, String name) throws IOException {
        Map<String, Object> job = Map.of(
                "apiVersion",
                "batch.volcano.sh/v1alpha1",
                "kind",
                "Job",
                "metadata",
                Map.of("name", name, "namespace", system.namespace),
                "spec",
                Map.of(
                        "minAvailable",
                        2,
                        "schedulerName",
                        system.schedulerName,
                        "tasks",
                        List.of(Map.of(
                                "name",
                                "main",
                                "replicas",
                                2,
                                "template",
                                Map.of(
                                        "metadata", Map.of("annotations", Map.of("lahar.io/sim-duration", "1s")),
                                        "spec",
                                                Map.of(
                                                        "restartPolicy",
                                                        "Never",
                                                        "containers",
                                                        List.of(Map.of("name", "main", "image", "busybox"))))))));
        Path file = system.dir.resolve("clients").resolve(name + ".json");
        Files.createDirectories(file.getParent());
        JSON.writeValue(file.toFile(), job);
        return file;
    }

    private static Path examples(LaharSystem system) {
        return system.root().resolve("examples/clients");
    }

    /** Skips the test when a client's dependencies cannot be installed here, loudly: never a silent pass. */
    private static void assumeInstalled(boolean installed, String client, String why) {
        if (!installed) {
            String banner = "*".repeat(100);
            System.err.printf(
                    "%n%s%n*** ClientExamplesIT: %s NOT RUN: its dependencies cannot be installed here%n%s%n%s%n%n",
                    banner, client, why, banner);
        }
        Assumptions.assumeTrue(installed, client + " not run: its dependencies cannot be installed here\n" + why);
    }

    private static Map<String, String> compression(Admin admin, Collection<TopicSpec> topics) throws Exception {
        List<ConfigResource> resources = topics.stream()
                .map(t -> new ConfigResource(ConfigResource.Type.TOPIC, t.name()))
                .toList();
        Map<ConfigResource, Config> configs =
                admin.describeConfigs(resources).all().get();
        return configs.entrySet().stream()
                .collect(Collectors.toMap(
                        e -> e.getKey().name(),
                        e -> e.getValue()
                                .get(TopicConfig.COMPRESSION_TYPE_CONFIG)
                                .value()));
    }
}
