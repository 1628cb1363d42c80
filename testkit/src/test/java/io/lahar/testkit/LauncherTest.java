package io.lahar.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class LauncherTest {

    @Test
    void theBuildRecordedTheBrokerClasspathWithKafkaAndALoggingBinding() {
        List<Path> jars = Launcher.kafkaClasspath();
        assertThat(jars).allMatch(Files::isRegularFile);
        assertThat(jars)
                .extracting(p -> p.getFileName().toString())
                .anyMatch(n -> n.startsWith("kafka_2.13-" + Launcher.buildProperty("kafka.version")))
                .anyMatch(n -> n.startsWith("log4j-slf4j2-impl-"))
                .anyMatch(n -> n.startsWith("log4j-core-"))
                // The test API is the testkit's, not the broker's.
                .noneMatch(n -> n.startsWith("junit-jupiter"));
    }

    @Test
    void theBuildUnpackedTheRegistryDistribution() {
        Path dir = Launcher.registryDistribution();
        assertThat(dir.resolve("quarkus-run.jar")).isRegularFile();
        assertThat(dir.resolve(
                        "app/apicurio-registry-app-" + Launcher.buildProperty("apicurio.registry.version") + ".jar"))
                .isRegularFile();
    }

    @Test
    void childrenFindTheWatchdogInTheTestkitsClasses() {
        Path location = Launcher.ownClassesLocation();
        assertThat(Files.isRegularFile(location)
                        || Files.isRegularFile(location.resolve("io/lahar/testkit/ParentWatchdog.class")))
                .isTrue();
        assertThat(Path.of(Launcher.buildProperty("testkit.classes.dir"))
                        .resolve("io/lahar/testkit/ParentWatchdog.class"))
                .isRegularFile();
    }

    @Test
    void rssIsReadFromProc() {
        assertThat(Launcher.rssBytes(ProcessHandle.current().pid()).orElse(0)).isGreaterThan(10L * 1024 * 1024);
        assertThat(Launcher.rssBytes(Long.MAX_VALUE)).isEmpty();
    }

    @Test
    void childrenRunOnAJavaNewEnoughForTheRegistry() {
        Path java = Launcher.javaExecutable();
        assertThat(java).isExecutable();
        assertThat(Runtime.version().feature()).isGreaterThanOrEqualTo(Launcher.MIN_CHILD_JAVA);
    }

    @Test
    void portConflictsAreRecognisedInLogs() {
        assertThat(Launcher.mentionsPortInUse("java.net.BindException: Address already in use"))
                .isTrue();
        assertThat(Launcher.mentionsPortInUse("Port already bound: 8080")).isTrue();
        assertThat(Launcher.mentionsPortInUse(
                        "ERROR [io.quarkus.runtime.ApplicationLifecycleManager] (main) Port 8080 seems"
                                + " to be in use by another process. Quarkus may already be running"))
                .isTrue();
        assertThat(Launcher.mentionsPortInUse("OutOfMemoryError")).isFalse();
    }
}
