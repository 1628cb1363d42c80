package io.lahar.system;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A program outside the JVM that the client-examples test runs (npm, node, python, apt-get): its
 * exit status and its output, stdout and stderr together in the order written, kept in a log file
 * under the run's directory. It is killed when it outlives its timeout.
 */
record ClientProcess(List<String> command, int exit, String output) {

    /** Exit status of a program that did not start (not installed) or was killed at its timeout. */
    static final int NOT_RUN = -1;

    static ClientProcess run(Path dir, Path log, Duration timeout, String... command) {
        return run(dir, log, timeout, Map.of(), command);
    }

    /** With these environment variables added to this JVM's. */
    static ClientProcess run(Path dir, Path log, Duration timeout, Map<String, String> env, String... command) {
        Process process;
        try {
            Files.createDirectories(dir);
            Files.createDirectories(log.getParent());
            ProcessBuilder builder = new ProcessBuilder(command)
                    .directory(dir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile());
            builder.environment().putAll(env);
            process = builder.start();
        } catch (IOException e) {
            return new ClientProcess(List.of(command), NOT_RUN, "cannot start: " + e.getMessage());
        }
        try {
            boolean exited = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (!exited) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
            String output = Files.readString(log, StandardCharsets.UTF_8);
            return new ClientProcess(
                    List.of(command),
                    exited ? process.exitValue() : NOT_RUN,
                    exited ? output : output + "\n(killed after " + timeout.toSeconds() + " s)");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + command[0], e);
        }
    }

    List<String> lines() {
        return output.lines().toList();
    }

    @Override
    public String toString() {
        return String.join(" ", command) + " exited " + exit + "\n--- output ---\n" + output;
    }
}
