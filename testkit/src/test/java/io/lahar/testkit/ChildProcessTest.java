package io.lahar.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChildProcessTest {

    @TempDir
    Path dir;

    private static Path testClasses() throws Exception {
        return Path.of(Sleeper.class
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .toURI());
    }

    private ChildProcess sleeper(String name, Duration grace, String... args) throws Exception {
        ChildProcess child = ChildProcess.startJava(
                name,
                List.of("-Xmx32m", "-XX:+UseSerialGC"),
                List.of(testClasses()),
                Sleeper.class.getName(),
                List.of(args),
                dir,
                dir.resolve(name + ".log"),
                grace);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> Files.readString(child.logFile()).contains("sleeper up"));
        return child;
    }

    @Test
    void closeStopsTheProcessWithSigterm() throws Exception {
        ChildProcess child = sleeper("polite", Duration.ofSeconds(20));
        long pid = child.pid();
        assertThat(ProcessHandle.of(pid))
                .hasValueSatisfying(p -> assertThat(p.isAlive()).isTrue());

        long began = System.nanoTime();
        child.close();

        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false))
                .isFalse();
        assertThat(child.isAlive()).isFalse();
        // SIGTERM sufficed: nowhere near the 20 s grace period.
        assertThat(Duration.ofNanos(System.nanoTime() - began)).isLessThan(Duration.ofSeconds(10));
    }

    @Test
    void aProcessThatIgnoresSigtermIsKilledAfterTheGracePeriod() throws Exception {
        ChildProcess child = sleeper("stubborn", Duration.ofMillis(500), "stubborn");
        long pid = child.pid();

        child.close();

        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false))
                .isFalse();
    }

    @Test
    void closeIsIdempotent() throws Exception {
        ChildProcess child = sleeper("twice", Duration.ofSeconds(20));
        child.close();
        child.close();
        assertThat(child.isAlive()).isFalse();
    }

    @Test
    void theChildLogsToItsFileAndReportsItsRss() throws Exception {
        try (ChildProcess child = sleeper("rss", Duration.ofSeconds(20))) {
            assertThat(Files.readString(child.logFile()))
                    .startsWith("=== lahar-testkit: starting rss: ")
                    .contains(ParentWatchdog.class.getName());
            assertThat(child.rssBytes()).isPresent();
            assertThat(child.rssBytes().getAsLong()).isGreaterThan(1024 * 1024);
            assertThat(child.logTail(1)).isEqualTo("sleeper up");
        }
    }

    @Test
    void aChildExitsByItselfWhenItsParentIsKilled() throws Exception {
        // A stand-in parent we can SIGKILL: the child watches it instead of this JVM.
        Process parent = new ProcessBuilder("sleep", "600").start();
        List<String> command = List.of(
                Launcher.javaExecutable().toString(),
                "-Xmx32m",
                "-cp",
                testClasses() + java.io.File.pathSeparator + Launcher.ownClassesLocation(),
                ParentWatchdog.class.getName(),
                Long.toString(parent.pid()),
                Sleeper.class.getName(),
                "stubborn-not");
        try (ChildProcess child =
                ChildProcess.start("orphan", command, dir, dir.resolve("orphan.log"), Duration.ofSeconds(5))) {
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> Files.readString(child.logFile()).contains("sleeper up"));
            assertThat(child.isAlive()).isTrue();

            parent.destroyForcibly().waitFor();

            await().atMost(Duration.ofSeconds(15)).until(() -> !child.isAlive());
            assertThat(child.exitValue()).isEqualTo(ParentWatchdog.PARENT_GONE_EXIT);
            assertThat(Files.readString(child.logFile())).contains("parent process " + parent.pid() + " exited");
        } finally {
            parent.destroyForcibly();
        }
    }

    @Test
    void theWatchdogRefusesToStartWhenTheParentIsAlreadyGone() throws Exception {
        Process parent = new ProcessBuilder("true").start();
        parent.waitFor();
        List<String> command = List.of(
                Launcher.javaExecutable().toString(),
                "-Xmx32m",
                "-cp",
                testClasses() + java.io.File.pathSeparator + Launcher.ownClassesLocation(),
                ParentWatchdog.class.getName(),
                Long.toString(parent.pid()),
                Sleeper.class.getName());
        try (ChildProcess child =
                ChildProcess.start("late", command, dir, dir.resolve("late.log"), Duration.ofSeconds(5))) {
            assertThat(child.waitFor(Duration.ofSeconds(30))).isTrue();
            assertThat(child.exitValue()).isEqualTo(ParentWatchdog.PARENT_GONE_EXIT);
            assertThat(Files.readString(child.logFile())).doesNotContain("sleeper up");
        }
    }
}
