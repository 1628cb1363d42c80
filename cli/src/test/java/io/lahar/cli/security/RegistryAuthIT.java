package io.lahar.cli.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lahar.cli.Lahar;
import io.lahar.schema.Tick;
import io.lahar.schema.serde.RegistrySerdes;
import io.lahar.testkit.ApicurioRegistry;
import io.lahar.testkit.RegistryAuth;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Instant;
import java.util.Set;
import org.apache.kafka.common.serialization.Serde;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A secured registry, as bin/start runs it: nobody reads, registers or deletes a schema without
 * its credentials, and Lahar's serdes (every service and the CLI use them) pass them.
 */
class RegistryAuthIT {

    @TempDir
    static Path dir;

    static ApicurioRegistry registry;
    static RegistryAuth auth;
    final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    static void start() {
        registry = ApicurioRegistry.start(dir, false, 0, true);
        auth = registry.auth().orElseThrow();
    }

    @AfterAll
    static void stop() {
        registry.close();
    }

    private int status(String method, String path, String authorization) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(registry.url() + path))
                .method(method, HttpRequest.BodyPublishers.noBody());
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.discarding())
                .statusCode();
    }

    @Test
    void anonymousCallsAreRefusedAndTheCredentialsFileIsOwnerOnly() throws Exception {
        assertThat(status("GET", "/groups", null)).isEqualTo(401);
        assertThat(status("DELETE", "/groups/default", null)).isEqualTo(401);
        assertThat(status("GET", "/groups", auth.basicHeader())).isEqualTo(200);
        assertThat(Files.getPosixFilePermissions(auth.file()))
                .isEqualTo(Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE));
        assertThat(Files.getPosixFilePermissions(dir.resolve("registry/config/application.properties")))
                .isEqualTo(Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE));
    }

    @Test
    void theSerdesWithTheCredentialsRegisterAndReadAndWithoutThemFail() {
        Tick tick = new Tick(Instant.ofEpochMilli(1_700_000_000_000L));
        Serde<Tick> serde =
                new RegistrySerdes(registry.url(), RegistrySerdes.Credentials.fromFile(auth.file())).value(Tick.class);
        byte[] bytes = serde.serializer().serialize("auth-it", tick);
        assertThat(serde.deserializer().deserialize("auth-it", bytes)).isEqualTo(tick);

        Serde<Tick> anonymous = new RegistrySerdes(registry.url()).value(Tick.class);
        assertThatThrownBy(() -> anonymous.serializer().serialize("auth-it-2", tick))
                .hasStackTraceContaining("401");
    }

    @Test
    void theCliTakesTheCredentialsFileFromItsFlag() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        // No broker at this address: the verb fails on Kafka, after reading the credentials file.
        int code = Lahar.run(
                new String[] {
                    "queue",
                    "list",
                    "--bootstrap",
                    "127.0.0.1:1",
                    "--registry",
                    registry.url(),
                    "--registry-credentials",
                    dir.resolve("missing.properties").toString()
                },
                new PrintWriter(out),
                new PrintWriter(err));
        assertThat(code).isEqualTo(Lahar.EXIT_INPUT);
        assertThat(err.toString()).contains("cannot read the registry credentials in");
    }
}
