package io.lahar.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.Reader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * README's second command as a user meets it: {@code bin/start} started the way a script starts a
 * background job (SIGINT ignored on entry) prints a banner with every endpoint and writes the
 * connection context every lahar verb reads, with no JVM warning in its output; the registry and the
 * REST API refuse a client without the secrets whose files the context names; the example jobs
 * finish; after a SIGKILL of the streams-app, and then of the scheduler, each started again by its
 * supervisor as the same member of its group, a job is admitted and runs; {@code kill -INT} stops
 * every process it started; a second {@code bin/start} on the same data resumes that system,
 * submitting and following nothing that is already there.
 */
class BinStartIT {

    private static final Path ROOT = ProjectRoot.DIR;
    private static final Duration START = Duration.ofMinutes(8);
    /**
     * How long a service may take to come back after a SIGKILL. Not the measure of static membership
     * (decision 070 has the figures): on two cores beside other builds a restart alone took longer
     * than the group session a dynamic member waits out, and once longer than two minutes.
     */
    private static final Duration RESTART = Duration.ofMinutes(4);
    /** Where the started system's logs are kept when the test fails (its data dir is a temporary one). */
    private static final Path KEPT_LOGS = ROOT.resolve("system-tests/target/failsafe-reports/BinStartIT-logs");

    /** A one-pod job that runs a second on the emulated cluster, named by its argument. */
    private static final String SHORT_JOB = """
            {"apiVersion": "batch.volcano.sh/v1alpha1", "kind": "Job", "metadata": {"name": "%s"},
             "spec": {"minAvailable": 1, "schedulerName": "volcano", "tasks": [{"name": "work", "replicas": 1,
              "template": {"metadata": {"annotations": {"lahar.io/sim-duration": "1s"}},
               "spec": {"containers": [{"name": "work", "image": "busybox"}]}}}]}}
            """;

    @TempDir
    Path dir;

    @Test
    void startsWithABannerAndAContextStopsOnSigintAndResumesOnItsData() throws Exception {
        Path data = dir.resolve("data");
        Path firstOut = dir.resolve("first.txt");
        // As `bin/start &` from a non-interactive shell: SIGINT ignored when it starts.
        Process first = start(firstOut, "trap '' INT; exec \"$0\" \"$@\"", data);
        List<ProcessHandle> started = new ArrayList<>();
        try {
            await().atMost(START)
                    .pollInterval(Duration.ofSeconds(1))
                    .until(() -> read(firstOut).contains("the submitted jobs finished") || !first.isAlive());
            String out = read(firstOut);
            assertThat(out).as(out).contains("the submitted jobs finished");
            assertThat(out)
                    .contains(
                            "Lahar is running",
                            "Kafka bootstrap",
                            "Confluent-compat.",
                            "REST API",
                            "Console",
                            "Metrics",
                            "Kubernetes API",
                            "export LAHAR_CONTEXT=" + data.resolve("context"));
            assertThat(out.lines().filter(l -> l.startsWith("WARNING:")))
                    .as("JVM warnings")
                    .isEmpty();

            Properties context = new Properties();
            try (Reader in = Files.newBufferedReader(data.resolve("context"))) {
                context.load(in);
            }
            assertThat(context.stringPropertyNames())
                    .contains(
                            "bootstrap",
                            "registry",
                            "registry.ccompat",
                            "server",
                            "console",
                            "metrics",
                            "kubeconfig",
                            "token.file",
                            "registry.credentials.file");
            assertThat(out).contains("Kafka bootstrap      " + context.getProperty("bootstrap"));
            assertThat(get(context.getProperty("server") + "/q/health/ready")).isEqualTo(200);
            assertThat(get(context.getProperty("console"))).isEqualTo(200);
            // Secure by default: the registry and the REST API refuse a client without their secrets.
            String subjects = context.getProperty("registry.ccompat") + "/subjects";
            assertThat(get(subjects, null)).isEqualTo(401);
            Properties credentials = new Properties();
            try (Reader in = Files.newBufferedReader(Path.of(context.getProperty("registry.credentials.file")))) {
                credentials.load(in);
            }
            assertThat(get(
                            subjects,
                            "Basic "
                                    + java.util.Base64.getEncoder()
                                            .encodeToString((credentials.getProperty("username") + ":"
                                                            + credentials.getProperty("password"))
                                                    .getBytes(StandardCharsets.UTF_8))))
                    .isEqualTo(200);
            Path token = Path.of(context.getProperty("token.file"));
            assertThat(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(token)))
                    .isEqualTo("rw-------");
            String jobs = context.getProperty("server") + "/api/v1/jobs";
            assertThat(get(jobs, null)).isEqualTo(401);
            assertThat(get(jobs, "Bearer " + Files.readString(token).strip())).isEqualTo(200);
            assertThat(Files.exists(Path.of(context.getProperty("kubeconfig")))).isTrue();

            // A crash of the streams-app, then one of the scheduler: the supervisor starts each again, as a
            // static member of its group that takes its partitions back (decision 070).
            String bearer = "Bearer " + Files.readString(token).strip();
            kill(data, "streams-app");
            await("a job admitted after the streams-app's crash")
                    .atMost(RESTART)
                    .pollInterval(Duration.ofMillis(500))
                    .ignoreExceptions()
                    .until(() -> admitted(jobs, bearer, "after-streams-crash"));
            kill(data, "scheduler-service");
            AtomicBoolean submitted = new AtomicBoolean();
            await("a job admitted and running after the scheduler's crash")
                    .atMost(RESTART)
                    .pollInterval(Duration.ofMillis(500))
                    .ignoreExceptions()
                    .until(() -> {
                        if (!submitted.get()) {
                            submitted.set(admitted(jobs, bearer, "after-scheduler-crash"));
                        }
                        return submitted.get() && runsOrRan(jobs, bearer, "after-scheduler-crash");
                    });

            started.addAll(pids(data));
            assertThat(started).as("supervised processes").hasSizeGreaterThanOrEqualTo(6);
            new ProcessBuilder("kill", "-INT", Long.toString(first.pid()))
                    .inheritIO()
                    .start()
                    .waitFor();
            assertThat(first.waitFor(2, TimeUnit.MINUTES))
                    .as("bin/start ends on SIGINT")
                    .isTrue();
            assertThat(started).as("every process it started").noneMatch(ProcessHandle::isAlive);
            assertThat(read(firstOut)).contains("stopped");
        } catch (Throwable failure) {
            keepLogs(data, firstOut, failure);
            throw failure;
        } finally {
            stop(data);
            first.destroyForcibly();
            started.forEach(ProcessHandle::destroyForcibly);
            // What runs however the test ended (a service the supervisor started again since is not in started).
            pids(data).forEach(ProcessHandle::destroyForcibly);
        }

        Path secondOut = dir.resolve("second.txt");
        Process second = start(secondOut, "exec \"$0\" \"$@\"", data, "--exit-after-demo");
        try {
            assertThat(second.waitFor(START.toMinutes(), TimeUnit.MINUTES))
                    .as("second bin/start ends")
                    .isTrue();
            String out = read(secondOut);
            assertThat(second.exitValue()).as(out).isZero();
            assertThat(out)
                    .contains(
                            "default/tf-job exists already",
                            "default/mpi-job exists already",
                            "default/spark-job exists already",
                            "Rejected Job: default/broken");
            assertThat(out).doesNotContain("submitting example jobs", "phase as it changes");
        } catch (Throwable failure) {
            keepLogs(data, secondOut, failure);
            throw failure;
        } finally {
            stop(data);
            second.destroyForcibly();
            pids(data).forEach(ProcessHandle::destroyForcibly);
        }
    }

    /**
     * {@code bin/stop --data}, however the test ended: it stops bin/start and all it started, and
     * what a bin/start gone without its trap left (the supervisors, the services, the broker and the
     * registry, which no pid file of {@code run/} names and which outlived a failed run before).
     * Nothing is left to it after a run that passed.
     */
    private static void stop(Path data) throws IOException, InterruptedException {
        Process stop = new ProcessBuilder(ROOT.resolve("bin/stop").toString(), "--data", data.toString())
                .directory(ROOT.toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        if (!stop.waitFor(3, TimeUnit.MINUTES)) {
            stop.destroyForcibly();
        }
    }

    private static Process start(Path out, String shell, Path data, String... more) throws IOException {
        List<String> command = new ArrayList<>(List.of(
                "bash", "-c", shell, ROOT.resolve("bin/start").toString(), "--data", data.toString(), "--skip-build"));
        command.addAll(List.of(more));
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(ROOT.toFile())
                .redirectErrorStream(true)
                .redirectOutput(out.toFile());
        builder.environment().remove("LAHAR_START_SIGNALS");
        builder.environment().remove("LAHAR_CONTEXT");
        return builder.start();
    }

    /**
     * Copies bin/start's output, the threads of every service still running and every log of the
     * system it started (each service's, with the supervisor's notes of its restarts, the
     * infrastructure's) to {@link #KEPT_LOGS}, where they outlive the temporary data dir: a failure
     * here is a service that did not come back or did not answer, which only they explain.
     */
    private static void keepLogs(Path data, Path output, Throwable failure) {
        try {
            Files.createDirectories(KEPT_LOGS);
            Files.copy(output, KEPT_LOGS.resolve(output.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            threadDumps(data);
            if (Files.isDirectory(data)) {
                try (Stream<Path> files = Files.list(data)) {
                    for (Path log :
                            files.filter(f -> f.toString().endsWith(".log")).toList()) {
                        Files.copy(log, KEPT_LOGS.resolve(log.getFileName()), StandardCopyOption.REPLACE_EXISTING);
                    }
                }
            }
        } catch (IOException | RuntimeException | InterruptedException e) {
            // The test's own failure is what it reports; this one goes with it.
            failure.addSuppressed(e);
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * The threads of every service still running, each in {@code <service>-threads.txt} beside the
     * logs: a service that stopped working without a word (a stream thread that stopped polling) is
     * explained by what its threads wait on, which no log says.
     */
    private static void threadDumps(Path data) throws IOException, InterruptedException {
        Path run = data.resolve("run");
        if (!Files.isDirectory(run)) {
            return;
        }
        String jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
        try (Stream<Path> files = Files.list(run)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".pid")
                            && !f.toString().endsWith(".supervisor.pid")
                            && !f.getFileName().toString().equals("bin-start.pid"))
                    .toList()) {
                Optional<ProcessHandle> service = process(file);
                if (service.isEmpty()) {
                    continue;
                }
                String name = file.getFileName().toString().replace(".pid", "");
                Process dump = new ProcessBuilder(
                                jcmd, Long.toString(service.get().pid()), "Thread.print")
                        .redirectErrorStream(true)
                        .redirectOutput(KEPT_LOGS.resolve(name + "-threads.txt").toFile())
                        .start();
                if (!dump.waitFor(1, TimeUnit.MINUTES)) {
                    dump.destroyForcibly();
                }
            }
        }
    }

    /** The processes bin/start's pid files name (bin/start's own and each supervisor's service). */
    private static List<ProcessHandle> pids(Path data) throws IOException {
        Path run = data.resolve("run");
        if (!Files.isDirectory(run)) {
            return List.of();
        }
        List<ProcessHandle> handles = new ArrayList<>();
        try (Stream<Path> files = Files.list(run)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".pid")).toList()) {
                process(file).ifPresent(handles::add);
            }
        }
        return handles;
    }

    /** The process a pid file names (its first word), if it runs. */
    private static Optional<ProcessHandle> process(Path pidFile) throws IOException {
        return ProcessHandle.of(Long.parseLong(Files.readString(pidFile).trim().split(" ", 2)[0]));
    }

    private static int get(String url) throws IOException, InterruptedException {
        return get(url, null);
    }

    private static int get(String url, String authorization) throws IOException, InterruptedException {
        return send(request(url, authorization).build(), HttpResponse.BodyHandlers.discarding())
                .statusCode();
    }

    /** A request to {@code url} with a 10 s timeout, and {@code authorization} unless null. */
    private static HttpRequest.Builder request(String url, String authorization) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10));
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return request;
    }

    private static <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> body)
            throws IOException, InterruptedException {
        try (HttpClient http = HttpClient.newHttpClient()) {
            return http.send(request, body);
        }
    }

    /** SIGKILL of the service whose pid bin/start's pid file names. */
    private static void kill(Path data, String service) throws IOException {
        process(data.resolve("run/" + service + ".pid")).orElseThrow().destroyForcibly();
    }

    /** Submits {@link #SHORT_JOB} named {@code name}: whether it was admitted (or had been, its answer lost). */
    private static boolean admitted(String jobs, String authorization, String name)
            throws IOException, InterruptedException {
        return Set.of(201, 409).contains(post(jobs, authorization, SHORT_JOB.formatted(name)));
    }

    private static int post(String url, String authorization, String json) throws IOException, InterruptedException {
        HttpRequest request = request(url, authorization)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json))
                .build();
        return send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    /** Whether the job {@code name} of the default namespace is listed Running or Completed. */
    private static boolean runsOrRan(String jobs, String authorization, String name)
            throws IOException, InterruptedException {
        for (String phase : List.of("Running", "Completed")) {
            if (listed(jobs + "?namespace=default&phase=" + phase, authorization)
                    .contains("\"" + name + "\"")) {
                return true;
            }
        }
        return false;
    }

    private static String listed(String url, String authorization) throws IOException, InterruptedException {
        return send(request(url, authorization).build(), HttpResponse.BodyHandlers.ofString())
                .body();
    }

    private static String read(Path file) throws IOException {
        return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
    }
}
