package io.lahar.testkit;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * One real Apicurio Registry (the {@code apicurio-registry-app} 3.3.3 distribution, a Quarkus
 * app) run as a child JVM on loopback ports. Its Confluent-compatible API ({@link #ccompatUrl()})
 * is what Confluent-format clients use; {@link #url()} is Apicurio's own v3 API, used by the
 * Apicurio serdes.
 *
 * <p>Storage is H2: in memory (tests), or in files under {@code dataDir/registry} when
 * {@code persistent} (the demo, so schema ids stay valid for the records kept in Kafka). After
 * start the global compatibility is set to BACKWARD, as Lahar's schemas promise: Apicurio's
 * default is NONE. Its output goes to {@code dataDir/registry.log}.
 */
public final class ApicurioRegistry extends InfraProcess {

    static final String HEAP = "384m";
    static final Duration READY_TIMEOUT = Duration.ofSeconds(240);
    static final String GLOBAL_COMPATIBILITY = "BACKWARD";
    private static final Pattern STATUS_UP = Pattern.compile("\"status\"\\s*:\\s*\"UP\"");
    private static final String QUARKUS_MAIN = "io.quarkus.bootstrap.runner.QuarkusEntryPoint";

    private final int port;
    private final int managementPort;
    private final boolean persistent;
    private final RegistryAuth auth;

    private ApicurioRegistry(
            Path dataDir,
            int port,
            int managementPort,
            boolean persistent,
            RegistryAuth auth,
            ChildProcess process,
            Duration startupTime) {
        super(dataDir, process, startupTime);
        this.port = port;
        this.managementPort = managementPort;
        this.persistent = persistent;
        this.auth = auth;
    }

    /** Starts a registry on free loopback ports. */
    public static ApicurioRegistry start(Path dataDir, boolean persistent) {
        return start(dataDir, persistent, 0);
    }

    /**
     * Starts a registry whose API listens on {@code 127.0.0.1:port} (0: a free port; the
     * management port is always a free one). Blocks until {@code /health/ready} answers UP and
     * the global compatibility is set.
     */
    public static ApicurioRegistry start(Path dataDir, boolean persistent, int port) {
        return start(dataDir, persistent, port, false);
    }

    /**
     * As {@link #start(Path, boolean, int)}; {@code secured}: every API call needs the HTTP basic
     * credentials of {@link RegistryAuth} (made once, kept in {@code dataDir}), as a registry that
     * holds a system's contract should (an open one lets anyone delete its schemas).
     */
    public static ApicurioRegistry start(Path dataDir, boolean persistent, int port, boolean secured) {
        return start(dataDir, persistent, port, secured, false);
    }

    /**
     * As {@link #start(Path, boolean, int, boolean)}; {@code preferred}: the port is a preference,
     * and a free one is taken when another process holds it.
     */
    public static ApicurioRegistry start(
            Path dataDir, boolean persistent, int preferredPort, boolean secured, boolean preferred) {
        checkPort("registry", preferredPort);
        Path dir = dataDir.toAbsolutePath().normalize();
        Path distribution = Launcher.registryDistribution();
        long began = System.nanoTime();
        RegistryAuth auth = secured ? RegistryAuth.of(dir) : null;
        return launchOnPorts(preferredPort, preferred, p -> {
            int[] free = FreePorts.distinct(2);
            int apiPort = p == 0 ? free[0] : p;
            int managementPort = free[1] == apiPort ? FreePorts.next() : free[1];
            return launch(dir, distribution, persistent, auth, apiPort, managementPort, began);
        });
    }

    private static ApicurioRegistry launch(
            Path dir,
            Path distribution,
            boolean persistent,
            RegistryAuth auth,
            int apiPort,
            int managementPort,
            long began) {
        Path registryDir = dir.resolve("registry");
        try {
            Files.createDirectories(registryDir.resolve("tmp"));
            // Quarkus reads config/application.properties in its working directory: the users
            // stay off the command line, where ps would show them.
            RegistryAuth.writeServerConfig(registryDir.resolve("config").resolve("application.properties"), auth);
        } catch (IOException e) {
            throw new InfraException("cannot create " + registryDir + ": " + e.getMessage(), e);
        }
        ChildProcess child = ChildProcess.startJava(
                "apicurio-registry",
                jvmOptions(registryDir, persistent, apiPort, managementPort),
                List.of(distribution.resolve("quarkus-run.jar")),
                QUARKUS_MAIN,
                List.of(),
                registryDir,
                dir.resolve("registry.log"),
                ChildProcess.DEFAULT_GRACE);
        HttpClient http =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        try {
            awaitReady(child, http, managementPort);
            setGlobalCompatibility(http, apiPort, auth);
        } catch (RuntimeException e) {
            String tail = child.logTail(40);
            child.close();
            if (Launcher.mentionsPortInUse(tail)) {
                throw new PortTakenException(
                        "apicurio registry could not bind its ports " + apiPort + "/" + managementPort + ":\n" + tail);
            }
            throw new InfraException(
                    "apicurio registry did not become ready (" + e.getMessage() + "); last lines of " + child.logFile()
                            + ":\n" + tail,
                    e);
        }
        Duration startup = Duration.ofNanos(System.nanoTime() - began);
        return new ApicurioRegistry(dir, apiPort, managementPort, persistent, auth, child, startup);
    }

    /** The credentials every API call needs; empty for an open registry. */
    public java.util.Optional<RegistryAuth> auth() {
        return java.util.Optional.ofNullable(auth);
    }

    /** Apicurio's own API, for the Apicurio serdes: {@code http://127.0.0.1:<port>/apis/registry/v3}. */
    public String url() {
        return "http://127.0.0.1:" + port + "/apis/registry/v3";
    }

    /** The Confluent Schema Registry compatible API: {@code http://127.0.0.1:<port>/apis/ccompat/v7}. */
    public String ccompatUrl() {
        return "http://127.0.0.1:" + port + "/apis/ccompat/v7";
    }

    public int port() {
        return port;
    }

    public int managementPort() {
        return managementPort;
    }

    public boolean persistent() {
        return persistent;
    }

    private static List<String> jvmOptions(Path registryDir, boolean persistent, int apiPort, int managementPort) {
        List<String> options = new ArrayList<>(Launcher.commonJvmOptions());
        options.addAll(List.of(
                "-Xms64m",
                "-Xmx" + HEAP,
                "-XX:+UseSerialGC",
                // A schema registry in a test does little work: C1 alone starts it faster on two cores.
                "-XX:TieredStopAtLevel=1",
                "-XX:+ExitOnOutOfMemoryError",
                // What quarkus-run.jar's manifest asks for when started with -jar.
                "--add-opens",
                "java.base/java.lang=ALL-UNNAMED",
                "--enable-native-access=ALL-UNNAMED",
                "-Djava.io.tmpdir=" + registryDir.resolve("tmp"),
                "-Dquarkus.http.host=127.0.0.1",
                "-Dquarkus.http.port=" + apiPort,
                // Without these the management interface binds 0.0.0.0:9000.
                "-Dquarkus.management.host=127.0.0.1",
                "-Dquarkus.management.port=" + managementPort,
                "-Dquarkus.log.console.color=false",
                "-Dapicurio.storage.snapshot.location=" + registryDir.resolve("tmp"),
                "-Dapicurio.import.work-dir=" + registryDir.resolve("tmp"),
                // Tests delete their subjects; Apicurio forbids deletion by default.
                "-Dapicurio.rest.deletion.group.enabled=true",
                "-Dapicurio.rest.deletion.artifact.enabled=true",
                "-Dapicurio.rest.deletion.artifact-version.enabled=true",
                // The default pool keeps 20 H2 connections open; a test registry needs few.
                "-Dapicurio.datasource.jdbc.initial-size=2",
                "-Dapicurio.datasource.jdbc.min-size=2",
                "-Dapicurio.datasource.jdbc.max-size=20"));
        if (persistent) {
            options.add("-Dapicurio.datasource.url=jdbc:h2:file:"
                    + registryDir.resolve("registry-db").toString().replace("\\", "/"));
        }
        return options;
    }

    private static void awaitReady(ChildProcess child, HttpClient http, int managementPort) {
        URI health = URI.create("http://127.0.0.1:" + managementPort + "/health/ready");
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        String lastAnswer = "no answer";
        try {
            while (true) {
                if (!child.isAlive()) {
                    throw new InfraException("the registry process exited");
                }
                try {
                    HttpResponse<String> response = http.send(
                            HttpRequest.newBuilder(health)
                                    .timeout(Duration.ofSeconds(5))
                                    .GET()
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
                    if (response.statusCode() == 200
                            && STATUS_UP.matcher(response.body()).find()) {
                        return;
                    }
                    lastAnswer = "HTTP " + response.statusCode() + " " + response.body();
                } catch (IOException notYet) {
                    lastAnswer = notYet.toString();
                }
                if (System.nanoTime() > deadline) {
                    throw new InfraException(health + " did not answer UP within " + READY_TIMEOUT.toSeconds()
                            + " s (last: " + lastAnswer + ")");
                }
                Thread.sleep(250);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InfraException("interrupted while waiting for the registry", e);
        }
    }

    private static void setGlobalCompatibility(HttpClient http, int apiPort, RegistryAuth auth) {
        URI config = URI.create("http://127.0.0.1:" + apiPort + "/apis/ccompat/v7/config");
        try {
            HttpRequest.Builder request = HttpRequest.newBuilder(config);
            if (auth != null) {
                request.header("Authorization", auth.basicHeader());
            }
            HttpResponse<String> response = http.send(
                    request.timeout(Duration.ofSeconds(30))
                            .header("Content-Type", "application/vnd.schemaregistry.v1+json")
                            .PUT(HttpRequest.BodyPublishers.ofString(
                                    "{\"compatibility\":\"" + GLOBAL_COMPATIBILITY + "\"}"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200 || !response.body().contains(GLOBAL_COMPATIBILITY)) {
                throw new InfraException(
                        "PUT " + config + " answered HTTP " + response.statusCode() + ": " + response.body());
            }
        } catch (IOException e) {
            throw new InfraException("PUT " + config + " failed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InfraException("interrupted while configuring the registry", e);
        }
    }
}
