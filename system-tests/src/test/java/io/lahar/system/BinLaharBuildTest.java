package io.lahar.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bin/lahar builds the CLI when a source of the modules it is made of is newer than its jar, and
 * only then. Maven leaves a jar whose own classes did not change as it was (a change in core
 * recompiles nothing of the CLI's), so a build must mark the jar built or every later call builds
 * again. Run on a copy of the scripts in a directory of their own, with an {@code mvn} on the PATH
 * that records its calls and, like Maven then, leaves the jar alone.
 */
class BinLaharBuildTest {

    private static final Path ROOT = ProjectRoot.DIR;

    @TempDir
    Path root;

    private Path jar;
    private Path calls;

    @BeforeEach
    void copyOfTheScripts() throws IOException {
        Files.createDirectories(root.resolve("bin/lib"));
        for (String script : List.of("bin/lahar", "bin/lib/jdk.sh")) {
            Files.copy(ROOT.resolve(script), root.resolve(script), StandardCopyOption.COPY_ATTRIBUTES);
        }
        for (String module : List.of("core", "schemas", "cli")) {
            Files.createDirectories(root.resolve(module + "/src/main/java"));
            Files.writeString(root.resolve(module + "/pom.xml"), "<project/>");
        }
        Files.createDirectories(root.resolve("cli/target/lib"));
        jar = Files.writeString(root.resolve("cli/target/lahar-cli.jar"), "");
        calls = root.resolve("mvn-calls");
        Path fakeBin = Files.createDirectories(root.resolve("fake-bin"));
        Path mvn = Files.writeString(fakeBin.resolve("mvn"), """
                #!/usr/bin/env bash
                echo "$*" >> "%s"
                [ ! -f "%s" ]
                """.formatted(calls, root.resolve("mvn-fails")));
        Files.setPosixFilePermissions(mvn, PosixFilePermissions.fromString("rwxr-xr-x"));
        Instant now = Instant.now();
        for (String module : List.of("core", "schemas", "cli")) {
            Files.setLastModifiedTime(root.resolve(module + "/pom.xml"), FileTime.from(now.minus(3, ChronoUnit.HOURS)));
        }
        Files.setLastModifiedTime(jar, FileTime.from(now.minus(2, ChronoUnit.HOURS)));
        Files.setLastModifiedTime(
                Files.writeString(root.resolve("core/src/main/java/Changed.java"), "class Changed {}"),
                FileTime.from(now.minus(1, ChronoUnit.HOURS)));
    }

    @Test
    void aCoreChangeBuildsTheCliOnceNotOnEveryCall() throws Exception {
        lahar();
        lahar();
        assertThat(mvnCalls()).as("mvn calls").hasSize(1).first().asString().contains("-pl cli -am package");
    }

    @Test
    void aFailedBuildIsTriedAgainOnTheNextCall() throws Exception {
        Files.writeString(root.resolve("mvn-fails"), "");
        lahar();
        Files.delete(root.resolve("mvn-fails"));
        lahar();
        lahar();
        assertThat(mvnCalls()).as("mvn calls").hasSize(2);
    }

    /** One call of bin/lahar; the JVM it runs at the end finds no CLI in the empty jar, which is not what is tested. */
    private void lahar() throws Exception {
        ProcessBuilder builder = new ProcessBuilder(root.resolve("bin/lahar").toString(), "--version")
                .redirectErrorStream(true)
                .redirectOutput(root.resolve("out.txt").toFile());
        builder.environment().put("PATH", root.resolve("fake-bin") + ":" + System.getenv("PATH"));
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        builder.environment().remove("LAHAR_CONTEXT");
        Process p = builder.start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("bin/lahar ends").isTrue();
    }

    private List<String> mvnCalls() throws IOException {
        return Files.exists(calls) ? Files.readAllLines(calls) : List.of();
    }
}
