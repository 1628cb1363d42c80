package io.lahar.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.Properties;

/**
 * What a child process needs from this build: the {@code java} to run, the broker's classpath and
 * the registry's distribution (both recorded at build time in {@code testkit.properties}), free
 * loopback ports, and the RSS of a running process.
 */
final class Launcher {

    /** The oldest Java the Apicurio Registry 3.x distribution runs on. */
    static final int MIN_CHILD_JAVA = 21;

    private static final String BUILD_PROPERTIES = "testkit.properties";

    private Launcher() {}

    /** The {@code java} of this JVM: the build runs on Temurin 25, so children do too. */
    static Path javaExecutable() {
        if (Runtime.version().feature() < MIN_CHILD_JAVA) {
            throw new InfraException("the testkit starts its children with this JVM's java, which is "
                    + Runtime.version() + "; Apicurio Registry needs Java " + MIN_CHILD_JAVA
                    + " or newer: run with JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64");
        }
        Path fromHome = Path.of(System.getProperty("java.home"), "bin", "java");
        if (Files.isExecutable(fromHome)) {
            return fromHome;
        }
        return ProcessHandle.current()
                .info()
                .command()
                .map(Path::of)
                .filter(Files::isExecutable)
                .orElseThrow(() -> new InfraException("cannot find this JVM's java executable (looked at " + fromHome
                        + " and this process's command)"));
    }

    /**
     * Options every child JVM gets. From Java 23 on, Kafka's and Netty's use of sun.misc.Unsafe
     * prints warnings at every start; the flag allows it quietly (older JVMs reject the flag).
     */
    static List<String> commonJvmOptions() {
        return Runtime.version().feature() >= 23 ? List.of("--sun-misc-unsafe-memory-access=allow") : List.of();
    }

    /**
     * The directory or jar holding the testkit's classes; children load {@link ParentWatchdog}
     * from it. Under a class loader that hides it (Quarkus' test class loaders may), the build's
     * output directory recorded in testkit.properties is used.
     */
    static Path ownClassesLocation() {
        var codeSource = ParentWatchdog.class.getProtectionDomain().getCodeSource();
        if (codeSource != null
                && codeSource.getLocation() != null
                && "file".equals(codeSource.getLocation().getProtocol())) {
            try {
                Path location = Path.of(codeSource.getLocation().toURI());
                if (Files.exists(location.resolve("io/lahar/testkit/ParentWatchdog.class"))
                        || Files.isRegularFile(location)) {
                    return location;
                }
            } catch (URISyntaxException | IllegalArgumentException e) {
                // Fall through to the recorded build output.
            }
        }
        Path classes = Path.of(buildProperty("testkit.classes.dir"));
        if (!Files.exists(classes.resolve("io/lahar/testkit/ParentWatchdog.class"))) {
            throw new InfraException("cannot locate the testkit's classes for child processes: " + classes
                    + " has no io/lahar/testkit/ParentWatchdog.class: build the testkit"
                    + " (mvn -pl testkit -am package -DskipTests)");
        }
        return classes;
    }

    /** The jars of {@code kafka_2.13} and its logging binding, written by the build. */
    static List<Path> kafkaClasspath() {
        Path file = Path.of(buildProperty("kafka.classpath.file"));
        if (!Files.isRegularFile(file)) {
            throw new InfraException("the Kafka broker classpath file " + file + " is missing: build the testkit"
                    + " first (mvn -pl testkit -am package -DskipTests)");
        }
        String content;
        try {
            content = Files.readString(file, StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            throw new InfraException("cannot read the Kafka broker classpath file " + file + ": " + e.getMessage(), e);
        }
        List<Path> jars = new ArrayList<>();
        List<Path> missing = new ArrayList<>();
        for (String entry : content.split(java.io.File.pathSeparator)) {
            if (entry.isBlank()) {
                continue;
            }
            Path jar = Path.of(entry);
            jars.add(jar);
            if (!Files.exists(jar)) {
                missing.add(jar);
            }
        }
        if (!missing.isEmpty()) {
            throw new InfraException("the Kafka broker classpath (" + file + ") names jars that are missing: " + missing
                    + ": rebuild the testkit (mvn -pl testkit -am package -DskipTests)");
        }
        if (jars.stream().noneMatch(j -> j.getFileName().toString().startsWith("kafka_2.13-"))) {
            throw new InfraException("the Kafka broker classpath (" + file + ") has no kafka_2.13 jar");
        }
        return jars;
    }

    /** The unpacked {@code apicurio-registry-app} distribution (the directory holding quarkus-run.jar). */
    static Path registryDistribution() {
        Path dir = Path.of(buildProperty("apicurio.registry.dir"));
        Path runJar = dir.resolve("quarkus-run.jar");
        if (!Files.isRegularFile(runJar)) {
            throw new InfraException("the Apicurio Registry distribution is missing: " + runJar
                    + " does not exist: build the testkit first (mvn -pl testkit -am package -DskipTests)"
                    + " to unpack io.apicurio:apicurio-registry-app:" + buildProperty("apicurio.registry.version")
                    + ":tar.gz:all there");
        }
        return dir;
    }

    static String buildProperty(String key) {
        Properties properties = new Properties();
        try (InputStream in = Launcher.class.getResourceAsStream(BUILD_PROPERTIES)) {
            if (in == null) {
                throw new InfraException("the testkit resource io/lahar/testkit/" + BUILD_PROPERTIES
                        + " is missing from the classpath: build the testkit with Maven");
            }
            properties.load(in);
        } catch (IOException e) {
            throw new InfraException("cannot read io/lahar/testkit/" + BUILD_PROPERTIES + ": " + e.getMessage(), e);
        }
        String value = properties.getProperty(key);
        if (value == null || value.isBlank() || value.contains("${")) {
            throw new InfraException("io/lahar/testkit/" + BUILD_PROPERTIES + " has no value for " + key
                    + " (was it filtered by Maven?)");
        }
        return value.strip();
    }

    /** VmRSS of a process from {@code /proc/<pid>/status}, in bytes. */
    static OptionalLong rssBytes(long pid) {
        Path status = Path.of("/proc", Long.toString(pid), "status");
        try {
            for (String line : Files.readAllLines(status, StandardCharsets.UTF_8)) {
                if (line.startsWith("VmRSS:")) {
                    String[] parts = line.substring("VmRSS:".length()).strip().split("\\s+");
                    return OptionalLong.of(Long.parseLong(parts[0]) * 1024L);
                }
            }
            return OptionalLong.empty();
        } catch (IOException | NumberFormatException | UncheckedIOException e) {
            return OptionalLong.empty();
        }
    }

    /** Whether the text of a log says a port was taken, the one start failure worth retrying. */
    static boolean mentionsPortInUse(String log) {
        return log.contains("Address already in use")
                || log.contains("BindException")
                || log.contains("Port already bound")
                || log.contains("port is already in use")
                // Quarkus' own words when its HTTP port is taken (the registry exits with them).
                || log.contains("seems to be in use by another process");
    }
}
