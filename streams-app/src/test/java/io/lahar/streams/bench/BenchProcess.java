package io.lahar.streams.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A part of the benchmark in a JVM of its own — the topology, as the streams-app is deployed, or
 * the raw loops — started with this JVM's java, classpath and options ({@code BENCH_JAVA_OPTS},
 * the {@code -Dbench.streams.*} overrides with them). Why: in one JVM the topology, the raw loops
 * and the harness's clients share the Kafka client code, and the JIT recompiled it in measured
 * rounds as one side's profile replaced the other's (up to as much compiler CPU as the stream
 * thread's own in a round, after the warm-up).
 *
 * <p>The child says it is ready by printing {@link #READY} on stdout; it stops when its stdin
 * closes ({@link #close}, or this JVM dying), so no child outlives the benchmark. Its stderr is
 * this one's.
 */
final class BenchProcess implements AutoCloseable {
    /** The line a child prints on stdout once it runs. */
    static final String READY = "bench-process: ready";

    private final String name;
    private final Process process;

    /**
     * Starts {@code mainClass} with {@code args} and returns once it printed {@link #READY}.
     *
     * @param name what it is, for the log and the CPU report ("topology JVM")
     */
    BenchProcess(String name, Class<?> mainClass, List<String> args, Duration timeout)
            throws IOException, InterruptedException {
        this.name = name;
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(mainClass.getName());
        command.addAll(args);
        process = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        // One reader for the child's stdout: it waits for READY, and passes every other line to the
        // log (an unread pipe would block the child once full).
        CompletableFuture<Boolean> ready = new CompletableFuture<>();
        BufferedReader out =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        Thread.ofPlatform().daemon().name(name + " stdout").start(() -> {
            try {
                for (String line; (line = out.readLine()) != null; ) {
                    if (READY.equals(line)) ready.complete(true);
                    else System.err.println(name + ": " + line);
                }
            } catch (IOException closed) {
                // It exited.
            }
            ready.complete(false);
        });
        boolean started;
        try {
            started = ready.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            process.destroyForcibly();
            throw new IllegalStateException(name + " did not start within " + timeout + state());
        } catch (ExecutionException e) {
            started = false;
        }
        if (!started) {
            // Its stdout ended before it was ready: it is exiting (a wrong argument, a failed start).
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
            throw new IllegalStateException(name + " ended before it was ready" + state());
        }
    }

    String name() {
        return name;
    }

    long pid() {
        return process.pid();
    }

    /** "" while it runs, else how it ended: for the message of a round that never completes. */
    String state() {
        return process.isAlive()
                ? ""
                : " (" + name + " exited with status " + process.exitValue() + ", see its log above)";
    }

    /** Closes its stdin, which stops it; kills it if it has not exited within 30 s. */
    @Override
    public void close() throws InterruptedException {
        try {
            process.getOutputStream().close();
        } catch (IOException alreadyGone) {
            // It exited: nothing to stop.
        }
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
    }

    /** In the child: blocks until the parent closes stdin (or dies). */
    static void awaitParent() throws IOException {
        while (System.in.read() >= 0) {
            // The parent writes nothing; EOF is the signal.
        }
    }
}
