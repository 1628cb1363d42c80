package io.lahar.testkit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

/**
 * One child JVM with its output appended to a log file, stopped on {@link #close()} and from a
 * JVM shutdown hook. The child also runs under {@link ParentWatchdog}, so it exits by itself when
 * this JVM dies without running its hooks (SIGKILL): a killed test run leaves no orphans.
 */
final class ChildProcess implements AutoCloseable {

    /** How long a child gets to stop cleanly after SIGTERM before it is killed. */
    static final Duration DEFAULT_GRACE = Duration.ofSeconds(20);

    private final String name;
    private final Process process;
    private final Path logFile;
    private final Duration grace;
    private final Thread shutdownHook;
    private volatile boolean closed;

    private ChildProcess(String name, Process process, Path logFile, Duration grace) {
        this.name = name;
        this.process = process;
        this.logFile = logFile;
        this.grace = grace;
        this.shutdownHook = new Thread(this::stop, "lahar-testkit-stop-" + name);
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /**
     * Starts {@code mainClass} in a new JVM (the same {@code java} as this one) with the given JVM
     * options and classpath, wrapped by {@link ParentWatchdog}.
     */
    static ChildProcess startJava(
            String name,
            List<String> jvmOptions,
            List<Path> classpath,
            String mainClass,
            List<String> args,
            Path workDir,
            Path logFile,
            Duration grace) {
        List<Path> fullClasspath = new ArrayList<>(classpath);
        fullClasspath.add(Launcher.ownClassesLocation());
        List<String> command = new ArrayList<>();
        command.add(Launcher.javaExecutable().toString());
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(String.join(
                java.io.File.pathSeparator,
                fullClasspath.stream().map(Path::toString).toList()));
        command.add(ParentWatchdog.class.getName());
        command.add(Long.toString(ProcessHandle.current().pid()));
        command.add(mainClass);
        command.addAll(args);
        return start(name, command, workDir, logFile, grace);
    }

    /** Starts an arbitrary command; its stdout and stderr are appended to {@code logFile}. */
    static ChildProcess start(String name, List<String> command, Path workDir, Path logFile, Duration grace) {
        try {
            Files.createDirectories(workDir);
            Files.createDirectories(logFile.toAbsolutePath().getParent());
            Files.writeString(
                    logFile,
                    "=== lahar-testkit: starting " + name + ": " + String.join(" ", command) + "\n",
                    StandardCharsets.UTF_8,
                    java.nio.file.StandardOpenOption.CREATE,
                    java.nio.file.StandardOpenOption.APPEND);
            Process process = new ProcessBuilder(command)
                    .directory(workDir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
                    .redirectInput(ProcessBuilder.Redirect.PIPE)
                    .start();
            return new ChildProcess(name, process, logFile, grace);
        } catch (IOException e) {
            throw new InfraException("cannot start " + name + " (" + command.getFirst() + "): " + e.getMessage(), e);
        }
    }

    String name() {
        return name;
    }

    long pid() {
        return process.pid();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    Path logFile() {
        return logFile;
    }

    /** Resident set size from /proc (Linux); empty where that cannot be read or the process is gone. */
    OptionalLong rssBytes() {
        return Launcher.rssBytes(process.pid());
    }

    /** The last {@code lines} lines of the log, to explain a failed start. */
    String logTail(int lines) {
        try {
            List<String> all = Files.readAllLines(logFile, StandardCharsets.UTF_8);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException | java.io.UncheckedIOException e) {
            return "(log " + logFile + " unreadable: " + e.getMessage() + ")";
        }
    }

    /** Waits up to {@code timeout} for the process to exit by itself; true if it did. */
    boolean waitFor(Duration timeout) throws InterruptedException {
        return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The exit code of a process that has exited. */
    int exitValue() {
        return process.exitValue();
    }

    @Override
    public void close() {
        stop();
        if (!closed) {
            return;
        }
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException alreadyShuttingDown) {
            // The hook is running or has run: nothing left to unregister.
        }
    }

    /** SIGTERM, wait up to the grace period, then SIGKILL. Idempotent and thread-safe. */
    private synchronized void stop() {
        if (closed) {
            return;
        }
        try {
            if (process.isAlive()) {
                process.destroy();
                if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                    process.destroyForcibly();
                    process.waitFor(10, TimeUnit.SECONDS);
                }
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        } finally {
            closed = true;
        }
    }
}
