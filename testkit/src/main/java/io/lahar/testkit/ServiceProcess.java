package io.lahar.testkit;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarFile;

/**
 * One Lahar service as the process {@code bin/start} runs: {@code java -jar
 * <module>/target/quarkus-app/quarkus-run.jar} with {@code -D} options (under a watchdog that ends
 * it with the test JVM), on the JDK that runs the tests, its output appended to
 * {@code <dir>/<name>.log}. {@link #stop()} is SIGTERM (Quarkus shuts
 * down cleanly), {@link #kill()} is SIGKILL (nothing is flushed, no transaction is finished: the
 * crash the exactly-once test needs).
 */
public final class ServiceProcess implements AutoCloseable {

    // Any certificate: only this test's own loopback processes are asked (the kube-emulator serves TLS).
    private static final HttpClient HTTP =
            LoopbackTls.client().connectTimeout(Duration.ofSeconds(2)).build();
    private static final Duration STOP_GRACE = Duration.ofSeconds(20);

    private static final String QUARKUS_READY = "/q/health/ready";
    private static final String QUARKUS_LIVE = "/q/health/live";

    private final String name;
    private final int port;
    private final Path log;
    private final Process process;
    private final String readyPath;
    private final String scheme;
    private final String livePath;

    private ServiceProcess(
            String name, int port, Path log, Process process, String readyPath, String livePath, String scheme) {
        this.scheme = scheme;
        this.name = name;
        this.port = port;
        this.log = log;
        this.process = process;
        this.readyPath = readyPath;
        this.livePath = livePath;
    }

    /**
     * Starts {@code jar} with {@code quarkus.http.port} set to {@code port} and the given system
     * properties; returns at once (see {@link #awaitReady}).
     */
    public static ServiceProcess start(String name, Path jar, int port, Map<String, String> properties, Path dir) {
        List<String> options = new ArrayList<>();
        options.add("-Dquarkus.http.port=" + port);
        properties.forEach((k, v) -> options.add("-D" + k + "=" + v));
        return launch(name, jar, port, options, List.of(), QUARKUS_READY, QUARKUS_LIVE, dir, "http");
    }

    /**
     * Starts a plain {@code java -jar} program that is not a Quarkus service (the kube-emulator) with
     * {@code args}; it listens on {@code port}, where {@code healthPath} answers 200 once it is ready.
     * Returns at once (see {@link #awaitReady}); a log of the same name is appended to, so a program
     * started again after a kill continues its log.
     */
    public static ServiceProcess startProgram(
            String name, Path jar, int port, List<String> args, String healthPath, Path dir) {
        return launch(name, jar, port, List.of(), args, healthPath, healthPath, dir, "http");
    }

    /** As {@link #startProgram}, for a program that serves HTTPS (with a certificate of its own making). */
    public static ServiceProcess startTlsProgram(
            String name, Path jar, int port, List<String> args, String healthPath, Path dir) {
        return launch(name, jar, port, List.of(), args, healthPath, healthPath, dir, "https");
    }

    private static ServiceProcess launch(
            String name,
            Path jar,
            int port,
            List<String> options,
            List<String> args,
            String readyPath,
            String livePath,
            Path dir,
            String scheme) {
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(jar + " does not exist: package the services first "
                    + "(mvn -pl streams-app,scheduler-service,k8s-bridge,kube-emulator -am package -DskipTests)");
        }
        List<String> command = new ArrayList<>();
        command.add(javaExecutable());
        command.add("-Xmx320m");
        command.add("-XX:+UseSerialGC");
        command.add("-XX:TieredStopAtLevel=1"); // start-up time matters more than peak speed here
        // Under the service's own directory, as bin/start has it: a service killed with -9 leaves its
        // Vert.x file cache there, not in the machine's /tmp.
        Path tmp = dir.resolve("tmp");
        command.add("-Djava.io.tmpdir=" + tmp);
        command.addAll(options);
        command.addAll(underWatchdog(jar));
        command.addAll(args);
        try {
            Files.createDirectories(tmp);
            Path log = dir.resolve(name + ".log");
            Files.writeString(
                    log,
                    "=== " + String.join(" ", command) + System.lineSeparator(),
                    StandardCharsets.UTF_8,
                    java.nio.file.StandardOpenOption.CREATE,
                    java.nio.file.StandardOpenOption.APPEND);
            Process process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .start();
            ServiceProcess service = new ServiceProcess(name, port, log, process, readyPath, livePath, scheme);
            // A test JVM that ends without closing us (an error, a SIGTERM) must not leave services behind.
            Runtime.getRuntime().addShutdownHook(new Thread(process::destroyForcibly, "stop-" + name));
            return service;
        } catch (IOException e) {
            throw new UncheckedIOException("could not start " + name, e);
        }
    }

    /**
     * What {@code -jar jar} runs, under the testkit's {@link ParentWatchdog}: the service exits (cleanly,
     * through its shutdown hooks) when this test JVM is gone, even after a SIGKILL that leaves no
     * shutdown hook of ours to run. The jar's manifest is honoured as {@code -jar} would: its
     * Main-Class, and its Add-Opens and Enable-Native-Access as command-line options.
     */
    public static List<String> underWatchdog(Path jar) {
        try (JarFile file = new JarFile(jar.toFile())) {
            Attributes manifest = file.getManifest().getMainAttributes();
            List<String> args = new ArrayList<>();
            String opens = manifest.getValue("Add-Opens");
            if (opens != null) {
                for (String target : opens.trim().split("\\s+")) {
                    args.add("--add-opens=" + target + "=ALL-UNNAMED");
                }
            }
            if (manifest.getValue("Enable-Native-Access") != null) {
                args.add("--enable-native-access=ALL-UNNAMED");
            }
            Path watchdog = Path.of(ParentWatchdog.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI());
            args.add("-cp");
            args.add(watchdog + File.pathSeparator + jar);
            args.add(ParentWatchdog.class.getName());
            args.add(Long.toString(ProcessHandle.current().pid()));
            args.add(manifest.getValue(Attributes.Name.MAIN_CLASS));
            return args;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the manifest of " + jar, e);
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The JDK that runs this test, so the services run on the same one. */
    public static String javaExecutable() {
        return ProcessHandle.current()
                .info()
                .command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    /**
     * Waits until {@code /q/health/ready} (a program's health path) answers 200; fails with the log's
     * tail if it dies or times out.
     */
    public ServiceProcess awaitReady(Duration timeout) {
        return awaitHealth(readyPath, timeout);
    }

    /**
     * Waits until {@code /q/health/live} answers 200: the service is up, ready or not (e.g. a
     * scheduler standby, which is live but not ready until it leads).
     */
    public ServiceProcess awaitLive(Duration timeout) {
        return awaitHealth(livePath, timeout);
    }

    /** The body of {@code GET path}, or {@code null} when the service does not answer 200. */
    public String get(String path) {
        try {
            HttpResponse<String> response = HTTP.send(
                    HttpRequest.newBuilder(uri(path))
                            .timeout(Duration.ofSeconds(3))
                            .GET()
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200 ? response.body() : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private ServiceProcess awaitHealth(String path, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        URI ready = uri(path);
        String last = "no answer";
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException(
                        name + " exited with " + process.exitValue() + " before it was ready\n" + logTail(60));
            }
            try {
                HttpResponse<String> response = HTTP.send(
                        HttpRequest.newBuilder(ready)
                                .timeout(Duration.ofSeconds(3))
                                .GET()
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == 200) {
                    return this;
                }
                last = response.statusCode() + " " + response.body();
            } catch (IOException e) {
                last = e.toString();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
            sleep(250);
        }
        throw new IllegalStateException(
                name + " not up at " + path + " after " + timeout + " (last: " + last + ")\n" + logTail(60));
    }

    public URI uri(String path) {
        return URI.create(scheme + "://127.0.0.1:" + port + path);
    }

    public int port() {
        return port;
    }

    public String name() {
        return name;
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** SIGTERM, and SIGKILL if it has not exited after a grace period. */
    public void stop() {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(STOP_GRACE.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }

    /** SIGKILL: the process dies mid-whatever, as in a crash. Returns once it is gone. */
    public void kill() {
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        stop();
    }

    /** The last {@code lines} lines of the log, headed by its path. */
    public String logTail(int lines) {
        try {
            // Decoded leniently: a log may hold any bytes.
            List<String> all = new String(Files.readAllBytes(log), StandardCharsets.UTF_8)
                    .lines()
                    .toList();
            return "--- last " + Math.min(lines, all.size()) + " lines of " + log + " ---" + System.lineSeparator()
                    + String.join(System.lineSeparator(), all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException | UncheckedIOException e) {
            return "(no log at " + log + ": " + e + ")";
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
