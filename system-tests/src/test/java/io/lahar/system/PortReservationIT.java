package io.lahar.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lahar.testkit.FreePorts;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bin/start's choice of ports ({@code bin/lib/ports.sh}): a port one bin/start chose is not chosen
 * by another while the first runs, even before anything binds it (the services bind theirs minutes
 * later); the reservation of a bin/start that ended is not in the way.
 */
class PortReservationIT {

    private static final Path ROOT = ProjectRoot.DIR;
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    private Process first;

    @AfterEach
    void tearDown() {
        if (first != null) first.destroyForcibly();
    }

    @Test
    void aPortChosenByARunningStartIsNotChosenAgainUntilThatStartEnds() throws Exception {
        int preferred = FreePorts.next();
        first = choose("first", preferred, "exec sleep 600");
        await().atMost(TIMEOUT).until(() -> chosen("first") != null);
        assertThat(chosen("first")).isEqualTo(String.valueOf(preferred));

        Process second = choose("second", preferred, "");
        assertThat(second.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS)).isTrue();
        assertThat(chosen("second")).isNotEqualTo(String.valueOf(preferred));
        assertThat(output("second")).contains("port " + preferred + " is taken: using " + chosen("second"));

        first.destroyForcibly().waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        Process third = choose("third", preferred, "");
        assertThat(third.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS)).isTrue();
        assertThat(chosen("third")).isEqualTo(String.valueOf(preferred));
    }

    @Test
    void randomPortsAreReservedToo() throws Exception {
        first = choose("first", 1, "exec sleep 600", "RANDOM_PORTS=true");
        await().atMost(TIMEOUT).until(() -> chosen("first") != null);
        String taken = chosen("first");
        assertThat(Files.readString(dir.resolve("reserved").resolve(taken)).trim())
                .isEqualTo(String.valueOf(first.pid()));

        Process second = choose("second", Integer.parseInt(taken), "");
        assertThat(second.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS)).isTrue();
        assertThat(chosen("second")).isNotEqualTo(taken);
    }

    /** A bash process that sources the ports functions as bin/start does, chooses a port and runs {@code then}. */
    private Process choose(String name, int preferred, String then) throws IOException {
        return choose(name, preferred, then, "RANDOM_PORTS=false");
    }

    private Process choose(String name, int preferred, String then, String mode) throws IOException {
        Path script = dir.resolve(name + ".sh");
        Files.writeString(script, """
                set -euo pipefail
                %s
                PORTS_RESERVED=%s
                source %s
                chosen=$(port %d)
                echo "$chosen" > %s
                %s
                """.formatted(
                        mode,
                        dir.resolve("reserved"),
                        ROOT.resolve("bin/lib/ports.sh"),
                        preferred,
                        dir.resolve(name + ".port"),
                        then));
        return new ProcessBuilder("bash", script.toString())
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve(name + ".out").toFile())
                .start();
    }

    private String chosen(String name) throws IOException {
        Path file = dir.resolve(name + ".port");
        if (!Files.exists(file)) return null;
        String port = Files.readString(file).trim();
        return port.isEmpty() ? null : port;
    }

    private String output(String name) throws IOException {
        return Files.readString(dir.resolve(name + ".out"), StandardCharsets.UTF_8);
    }
}
