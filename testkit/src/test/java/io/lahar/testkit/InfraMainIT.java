package io.lahar.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The launcher the demo and bin/infra use, run as its own process like they run it. */
class InfraMainIT {

    @TempDir
    Path dir;

    private Process infra;

    @AfterEach
    void stopInfra() {
        if (infra != null) {
            infra.destroyForcibly();
        }
    }

    private Process launch(String... options) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                Launcher.javaExecutable().toString(),
                "-Xmx128m",
                "-cp",
                Launcher.ownClassesLocation()
                        + File.pathSeparator
                        + String.join(
                                File.pathSeparator,
                                Launcher.kafkaClasspath().stream()
                                        .map(Path::toString)
                                        .toList()),
                InfraMain.class.getName(),
                "start",
                "--dir",
                dir.toString()));
        command.addAll(List.of(options));
        infra = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("infra.out").toFile())
                .start();
        Path env = dir.resolve("infra.env");
        await().atMost(Duration.ofMinutes(5))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> Files.exists(env) || !infra.isAlive());
        assertThat(infra.isAlive()).as("infra died: %s", output()).isTrue();
        await().atMost(Duration.ofSeconds(10)).until(() -> output().contains("READY "));
        return infra;
    }

    private String output() throws Exception {
        return Files.readString(dir.resolve("infra.out"));
    }

    private Properties env() throws Exception {
        Properties env = new Properties();
        try (var in = Files.newBufferedReader(dir.resolve("infra.env"))) {
            env.load(in);
        }
        return env;
    }

    @Test
    void startsBothPrintsTheirAddressesAndStopsThemOnSigterm() throws Exception {
        Process process = launch("--persistent");
        Properties env = env();
        System.out.println("InfraMain: "
                + output().lines()
                        .filter(l -> l.startsWith("READY"))
                        .findFirst()
                        .orElse(""));
        assertThat(output())
                .contains("KAFKA_BOOTSTRAP=" + env.getProperty("KAFKA_BOOTSTRAP"))
                .contains("REGISTRY_URL=" + env.getProperty("REGISTRY_URL"));
        assertThat(env.getProperty("INFRA_PID")).isEqualTo(Long.toString(process.pid()));

        try (Admin admin =
                Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, env.getProperty("KAFKA_BOOTSTRAP")))) {
            assertThat(admin.describeCluster().nodes().get(30, TimeUnit.SECONDS))
                    .hasSize(1);
        }
        assertThat(new Ccompat(env.getProperty("CCOMPAT_URL")).get("/subjects").status())
                .isEqualTo(200);
        List<ProcessHandle> children = process.toHandle().children().toList();
        assertThat(children).hasSize(2);

        process.destroy();

        assertThat(process.waitFor(90, TimeUnit.SECONDS)).isTrue();
        assertThat(output()).contains("infra: stopped");
        assertThat(children).noneMatch(ProcessHandle::isAlive);
        assertThat(dir.resolve("infra.env")).doesNotExist();
        assertThat(dir.resolve("kafka/meta.properties")).isRegularFile();
        assertThat(dir.resolve("registry"))
                .isDirectoryContaining(p -> p.getFileName().toString().startsWith("registry-db"));
    }

    @Test
    void killedWithoutAChanceToCleanUpItsChildrenStillExit() throws Exception {
        Process process = launch();
        List<ProcessHandle> children = process.toHandle().children().toList();
        assertThat(children).hasSize(2).allMatch(ProcessHandle::isAlive);

        process.destroyForcibly().waitFor();

        // No shutdown hook ran: the children's watchdogs notice the parent is gone.
        await().atMost(Duration.ofSeconds(60)).until(() -> children.stream().noneMatch(ProcessHandle::isAlive));
    }

    @Test
    void badArgumentsExitWithUsage() throws Exception {
        Process process = new ProcessBuilder(
                        Launcher.javaExecutable().toString(),
                        "-cp",
                        Launcher.ownClassesLocation().toString(),
                        InfraMain.class.getName(),
                        "start")
                .redirectErrorStream(true)
                .start();
        String out = new String(process.getInputStream().readAllBytes());
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).isEqualTo(2);
        assertThat(out).contains("--dir is required").contains(InfraMain.USAGE);
    }
}
