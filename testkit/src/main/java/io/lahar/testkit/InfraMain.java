package io.lahar.testkit;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.concurrent.CountDownLatch;

/**
 * {@code InfraMain start --dir DIR [--kafka-port P] [--registry-port P] [--persistent]}: starts a
 * broker and a registry, prints their addresses ({@code KAFKA_BOOTSTRAP=}, {@code REGISTRY_URL=},
 * {@code CCOMPAT_URL=}, {@code INFRA_PID=}) and a {@code READY} line, writes the same variables to
 * {@code DIR/infra.env}, and stays in the foreground until SIGTERM or SIGINT, then stops both and
 * removes {@code infra.env}.
 */
public final class InfraMain {

    static final String USAGE =
            "usage: infra start --dir DIR [--kafka-port P] [--registry-port P] [--persistent] [--secure-registry] [--prefer-ports]";

    private InfraMain() {}

    /** Parsed command line. */
    record Options(
            Path dir,
            int kafkaPort,
            int registryPort,
            boolean persistent,
            boolean secureRegistry,
            boolean preferPorts) {}

    public static void main(String[] args) throws InterruptedException {
        Options options;
        try {
            options = parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.err.println(USAGE);
            System.exit(2);
            return;
        }
        LaharInfra infra;
        try {
            infra = LaharInfra.start(
                    options.dir(),
                    options.persistent(),
                    options.kafkaPort(),
                    options.registryPort(),
                    options.secureRegistry(),
                    options.preferPorts());
        } catch (RuntimeException e) {
            System.err.println("infra: start failed: " + e.getMessage());
            System.exit(1);
            return;
        }
        Path envFile = options.dir().toAbsolutePath().resolve("infra.env");
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            System.out.println("infra: stopping");
                            try {
                                Files.deleteIfExists(envFile);
                            } catch (IOException ignored) {
                                // A stale infra.env names ports nobody listens on: harmless, and overwritten next
                                // start.
                            }
                            infra.close();
                            System.out.println("infra: stopped");
                            stopped.countDown();
                        },
                        "lahar-infra-stop"));
        List<String> env = environment(infra);
        env.forEach(System.out::println);
        try {
            writeAtomically(envFile, String.join("\n", env) + "\n");
        } catch (IOException e) {
            System.err.println("infra: cannot write " + envFile + ": " + e.getMessage());
            System.exit(1);
        }
        printReady(System.out, infra, options);
        // Stay up until a signal runs the shutdown hook; the JVM then exits after it.
        stopped.await();
    }

    static List<String> environment(LaharInfra infra) {
        List<String> lines = new ArrayList<>();
        lines.add("KAFKA_BOOTSTRAP=" + infra.bootstrapServers());
        lines.add("REGISTRY_URL=" + infra.registryUrl());
        lines.add("CCOMPAT_URL=" + infra.ccompatUrl());
        infra.registryAuth().ifPresent(auth -> lines.add("REGISTRY_CREDENTIALS=" + auth.file()));
        infra.secure().ifPresent(secure -> {
            lines.add("KAFKA_SECURE_BOOTSTRAP=" + secure.bootstrapServers());
            lines.add("KAFKA_SECURE_CONFIG=" + secure.clientConfigFile());
        });
        lines.add("INFRA_PID=" + ProcessHandle.current().pid());
        return lines;
    }

    private static void printReady(PrintStream out, LaharInfra infra, Options options) {
        KafkaBroker broker = infra.broker().orElseThrow();
        ApicurioRegistry registry = infra.registry().orElseThrow();
        out.printf(
                Locale.ROOT,
                "READY kafka=%s (pid %d, %.1f s, rss %s) registry=%s (pid %d, %.1f s, rss %s) dir=%s%s%n",
                infra.bootstrapServers(),
                broker.pid(),
                broker.startupTime().toMillis() / 1000.0,
                megabytes(broker.rssBytes()),
                infra.registryUrl(),
                registry.pid(),
                registry.startupTime().toMillis() / 1000.0,
                megabytes(registry.rssBytes()),
                options.dir().toAbsolutePath(),
                options.persistent() ? " persistent" : "");
        out.flush();
    }

    private static String megabytes(OptionalLong bytes) {
        return bytes.isPresent() ? (bytes.getAsLong() / (1024 * 1024)) + " MB" : "?";
    }

    static Options parse(String[] args) {
        if (args.length == 0 || !args[0].equals("start")) {
            throw new IllegalArgumentException("infra: the only command is 'start'");
        }
        Path dir = null;
        int kafkaPort = 0;
        int registryPort = 0;
        boolean persistent = false;
        boolean secureRegistry = false;
        boolean preferPorts = false;
        for (int i = 1; i < args.length; i++) {
            String arg = args[i];
            switch (arg) {
                case "--dir" -> dir = Path.of(value(args, ++i, arg));
                case "--kafka-port" -> kafkaPort = port(value(args, ++i, arg), arg);
                case "--registry-port" -> registryPort = port(value(args, ++i, arg), arg);
                case "--persistent" -> persistent = true;
                case "--secure-registry" -> secureRegistry = true;
                case "--prefer-ports" -> preferPorts = true;
                default -> throw new IllegalArgumentException("infra: unknown option " + arg);
            }
        }
        if (dir == null) {
            throw new IllegalArgumentException("infra: --dir is required");
        }
        return new Options(dir, kafkaPort, registryPort, persistent, secureRegistry, preferPorts);
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length || args[i].startsWith("--")) {
            throw new IllegalArgumentException("infra: " + option + " needs a value");
        }
        return args[i];
    }

    private static int port(String text, String option) {
        try {
            int port = Integer.parseInt(text);
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("infra: " + option + " must be 0..65535, got " + text);
            }
            return port;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("infra: " + option + " must be a number, got " + text);
        }
    }

    private static void writeAtomically(Path file, String content) throws IOException {
        Files.createDirectories(file.getParent());
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, content, StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
