package io.lahar.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lahar.testkit.LaharInfra;
import io.lahar.testkit.LoopbackTls;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The three services and the CLI on the broker's SASL_SSL (SCRAM-SHA-512) listener: the services
 * are given its address only, and their security settings as {@code kafka.} configuration, so a
 * client of theirs built without them could not reach the broker at all. Jobs submitted by the CLI
 * over Kafka and over the REST API reach Completed; a client with wrong credentials is refused by
 * the broker, one without the API token by the REST API, one without the kubeconfig's token by
 * the emulated Kubernetes API.
 */
class SecureSystemIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(120);
    private static LaharSystem system;

    @BeforeAll
    static void start() {
        system = LaharSystem.startSecure(LaharInfra.shared());
    }

    @AfterAll
    static void stop() {
        if (system != null) {
            system.close();
        }
    }

    @Test
    void jobsCompleteWithEveryServiceAndTheCliOnSaslSsl() throws Exception {
        Path viaKafka = manifest("secure-kafka");
        Path viaRest = manifest("secure-rest");

        LaharSystem.Cli submitted = system.laharOnKafka("submit", "-f", viaKafka.toString(), "--sender", "secure-it");
        assertThat(submitted.exit()).as(submitted.toString()).isZero();
        LaharSystem.Cli ran = system.lahar("job", "run", "-f", viaRest.toString());
        assertThat(ran.exit()).as(ran.toString()).isZero();

        LaharSystem.Cli watched = system.laharOnKafka(
                "watch",
                "--from-beginning",
                "--until-finished",
                system.key("secure-kafka") + "," + system.key("secure-rest"),
                "--timeout",
                Long.toString(TIMEOUT.toSeconds()));
        assertThat(watched.exit()).as(watched + system.logs()).isZero();
        assertThat(watched.out())
                .contains("secure-kafka")
                .contains("secure-rest")
                .contains("Completed");
        LaharSystem.Cli viewed = system.lahar("job", "view", "secure-rest", "-n", system.namespace);
        assertThat(viewed.exit()).as(viewed.toString()).isZero();
        assertThat(viewed.out()).contains("Completed");

        // Every service's consumers are members of their groups, on the only listener they know.
        try (Admin admin = Admin.create(bounded(system.secure.clientConfig()))) {
            Map<String, ConsumerGroupDescription> groups = admin.describeConsumerGroups(List.of(
                            system.streamsAppId,
                            "lahar-sys-" + system.run + "-scheduler-leader",
                            "lahar-sys-" + system.run + "-bridge"))
                    .all()
                    .get(30, TimeUnit.SECONDS);
            groups.forEach((group, description) ->
                    assertThat(description.members()).as(group).isNotEmpty());
        }
    }

    @Test
    void aKafkaClientWithWrongCredentialsIsRefused() {
        Map<String, Object> config = system.secure.clientConfig();
        config.put(
                "sasl.jaas.config",
                "org.apache.kafka.common.security.scram.ScramLoginModule required"
                        + " username=\"lahar\" password=\"not-the-password\";");

        assertThatThrownBy(() -> {
                    try (Admin admin = Admin.create(bounded(config))) {
                        admin.describeCluster().nodes().get(20, TimeUnit.SECONDS);
                    }
                })
                .hasRootCauseInstanceOf(SaslAuthenticationException.class);
    }

    @Test
    void theApisWantTheirTokens() throws Exception {
        HttpClient http =
                LoopbackTls.client().connectTimeout(Duration.ofSeconds(5)).build();
        HttpResponse<String> jobs = http.send(
                HttpRequest.newBuilder(system.streamsApp().uri("/api/v1/jobs"))
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(jobs.statusCode()).isEqualTo(401);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(system.apiTokenFile())))
                .isEqualTo("rw-------");

        URI secrets = URI.create(system.kube().getMasterUrl().toString().replaceAll("/$", "") + "/api/v1/namespaces/"
                + system.namespace + "/secrets");
        HttpResponse<String> anonymous =
                http.send(HttpRequest.newBuilder(secrets).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(anonymous.statusCode()).isEqualTo(401);
        assertThat(http.send(
                                HttpRequest.newBuilder(secrets)
                                        .header("Authorization", "Bearer lahar-embedded-no-auth")
                                        .GET()
                                        .build(),
                                HttpResponse.BodyHandlers.ofString())
                        .statusCode())
                .isEqualTo(401);
    }

    private static Path manifest(String name) throws Exception {
        String yaml = system.simJob(name, 2, "1s")
                .replaceFirst("(?m)^  name: " + name + "$", "  name: " + name + "\n  namespace: " + system.namespace);
        return Files.writeString(system.dir.resolve(name + ".yaml"), yaml);
    }

    private static Map<String, Object> bounded(Map<String, Object> config) {
        Map<String, Object> out = new HashMap<>(config);
        out.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 15000);
        out.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5000);
        return out;
    }
}
