package io.lahar.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lahar.testkit.FreePorts;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bin/start's supervision ({@code bin/lib/supervise.sh}), with two small HTTP servers as services: a
 * service that is killed is started again and reported while the other keeps running; one that is
 * held (stopped: its liveness URL no longer answers) is killed and started again, one only not
 * ready is left alone; one that keeps dying is given up on after the limit, and said so; stopping ends every process; services
 * started side by side ({@code supervise_start}) run before either is awaited.
 */
class SupervisionIT {

    private static final Path ROOT = ProjectRoot.DIR;
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    @TempDir
    Path data;

    @Test
    void aKilledServiceIsStartedAgainAndReportedWhileTheOtherKeepsRunning() throws Exception {
        int portA = FreePorts.next();
        int portB = FreePorts.next();
        Process script = script("""
                supervise_start a http://127.0.0.1:%1$d/ python3 -m http.server %1$d --bind 127.0.0.1
                await_ready a
                supervise_start b http://127.0.0.1:%2$d/ python3 -m http.server %2$d --bind 127.0.0.1
                await_ready b
                say started
                while :; do sleep 1 & wait $! || true; done
                """.formatted(portA, portB), "");
        try {
            await().atMost(TIMEOUT).until(() -> output().contains("started"));
            long a = pid("a").orElseThrow();
            long b = pid("b").orElseThrow();

            ProcessHandle.of(a).orElseThrow().destroyForcibly();

            await().atMost(TIMEOUT).until(() -> output().contains("a is back (restart 1)"));
            assertThat(output()).contains("a killed (SIGKILL); restarting it in 1s (restart 1 of at most 5 in a row");
            assertThat(pid("a")).isPresent().get().isNotEqualTo(a);
            assertThat(pid("b")).as("the other service, untouched").contains(b);
            assertThat(ProcessHandle.of(b).map(ProcessHandle::isAlive)).contains(true);

            long restarted = pid("a").orElseThrow();
            script.destroy(); // SIGTERM: the script's exit stops what it supervises
            assertThat(script.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS)).isTrue();
            assertThat(ProcessHandle.of(restarted).map(ProcessHandle::isAlive))
                    .as("a after the stop")
                    .isNotEqualTo(Optional.of(true));
            assertThat(ProcessHandle.of(b).map(ProcessHandle::isAlive))
                    .as("b after the stop")
                    .isNotEqualTo(Optional.of(true));
            assertThat(Files.exists(data.resolve("run/a.pid"))).isFalse();
        } finally {
            script.destroyForcibly();
        }
    }

    @Test
    void aServiceThatIsNoLongerLiveIsKilledAndStartedAgainWhileOneOnlyNotReadyIsLeftAlone() throws Exception {
        int portA = FreePorts.next();
        int portB = FreePorts.next();
        Path served = Files.createDirectories(data.resolve("served"));
        Files.writeString(served.resolve("live"), "ok");
        Files.writeString(served.resolve("ready"), "ok");
        // b is live on /live and ready on /ready; it stops being ready (the file goes), not live.
        Process script =
                script("""
                supervise_start a http://127.0.0.1:%1$d/ python3 -m http.server %1$d --bind 127.0.0.1
                supervise_start b http://127.0.0.1:%2$d/ready --live http://127.0.0.1:%2$d/live \\
                  python3 -m http.server %2$d --bind 127.0.0.1 --directory %3$s
                await_ready a
                await_ready b
                say started
                while :; do sleep 1 & wait $! || true; done
                """.formatted(portA, portB, served), "LAHAR_LIVENESS_PERIOD=1 LAHAR_LIVENESS_FAILURES=3");
        try {
            await().atMost(TIMEOUT).until(() -> output().contains("started"));
            long a = pid("a").orElseThrow();
            long b = pid("b").orElseThrow();
            // Two of the watch's checks answered (each is a request in a's log) before a is held: it
            // counts failures from then on, not only after a start-up's grace.
            long before = requests("a");
            await().atMost(TIMEOUT).until(() -> requests("a") >= before + 2);

            // Held, not dead: what a service whose threads are stuck for good looks like from outside.
            new ProcessBuilder("kill", "-STOP", Long.toString(a)).start().waitFor();
            Files.delete(served.resolve("ready"));

            await().atMost(TIMEOUT).until(() -> output().contains("a is back (restart 1)"));
            assertThat(output())
                    .contains(
                            "a is not live (http://127.0.0.1:%d/ failed 3 times in a row, 1s apart): killing it for a restart"
                                    .formatted(portA))
                    .contains("a killed (SIGKILL); restarting it in 1s (restart 1 of at most 5 in a row");
            assertThat(Files.readString(data.resolve("a.log")))
                    .containsSubsequence(
                            "not live (http://127.0.0.1:%d/ failed 3 times in a row): killed by bin/start"
                                    .formatted(portA),
                            "restarted by bin/start (restart 1)");
            assertThat(pid("a")).isPresent().get().isNotEqualTo(a);
            // Ten more checks of b, not ready all along: still the same process.
            Thread.sleep(10_000);
            assertThat(output()).doesNotContain("b is not live", "b killed");
            assertThat(pid("b")).as("b, not ready but live").contains(b);
        } finally {
            script.destroy();
            script.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            script.destroyForcibly();
        }
    }

    @Test
    void aServiceThatKeepsDyingIsGivenUpOnAfterTheLimit() throws Exception {
        int port = FreePorts.next();
        Process script = script("""
                supervise_start crashing http://127.0.0.1:%d/ bash -c 'echo run; exit 3'
                await_ready crashing
                """.formatted(port), "LAHAR_RESTART_LIMIT=2");
        try {
            assertThat(script.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS)).isTrue();
            assertThat(script.exitValue())
                    .as("start-up fails: the service never came up")
                    .isEqualTo(1);
            assertThat(output())
                    .contains(
                            "crashing exit status 3; restarting it in 1s (restart 1 of at most 2 in a row",
                            "crashing exit status 3; restarting it in 2s (restart 2 of at most 2 in a row",
                            "crashing exit status 3 after 2 restarts in a row: not restarting it again",
                            "crashing did not come up");
            assertThat(Files.readString(data.resolve("crashing.log")))
                    .containsSubsequence(
                            "run",
                            "restarted by bin/start (restart 1)",
                            "run",
                            "restarted by bin/start (restart 2)",
                            "run");
        } finally {
            script.destroyForcibly();
        }
    }

    @Test
    void servicesStartedSideBySideRunBeforeEitherIsAwaited() throws Exception {
        int portA = FreePorts.next();
        int portB = FreePorts.next();
        // a answers only once b runs: started one after the other, each awaited first, a never would.
        Process script = script("""
                supervise_start a http://127.0.0.1:%1$d/ bash -c 'until [ -f "$0" ]; do sleep 0.1; done; exec python3 -m http.server %1$d --bind 127.0.0.1' %3$s
                supervise_start b http://127.0.0.1:%2$d/ bash -c 'touch "$0"; exec python3 -m http.server %2$d --bind 127.0.0.1' %3$s
                await_ready a
                await_ready b
                say both ready
                """.formatted(portA, portB, data.resolve("b-runs")), "");
        try {
            assertThat(script.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS)).isTrue();
            assertThat(script.exitValue()).as(output()).isZero();
            assertThat(output()).contains("both ready");
            assertThat(pid("a")).as("stopped with the script").isEmpty();
        } finally {
            script.destroyForcibly();
        }
    }

    /** Runs {@code body} in bash after sourcing the supervision functions, as bin/start does. */
    private Process script(String body, String environment) throws IOException {
        Path file = data.resolve("script.sh");
        Files.writeString(file, """
                set -euo pipefail
                say() { echo "[lahar] $*"; }
                %s
                LAHAR_DATA=%s
                source %s
                trap stop_supervised EXIT
                trap 'exit 130' TERM
                %s""".formatted(environment, data, ROOT.resolve("bin/lib/supervise.sh"), body));
        return new ProcessBuilder("bash", file.toString())
                .redirectErrorStream(true)
                .redirectOutput(data.resolve("out.txt").toFile())
                .start();
    }

    private String output() throws IOException {
        Path out = data.resolve("out.txt");
        return Files.exists(out) ? Files.readString(out, StandardCharsets.UTF_8) : "";
    }

    /** How many requests {@code service} (python's http.server) has logged. */
    private long requests(String service) throws IOException {
        Path log = data.resolve(service + ".log");
        return Files.exists(log)
                ? Files.readAllLines(log).stream()
                        .filter(l -> l.contains("\"GET "))
                        .count()
                : 0;
    }

    /** The live process named in the pid file of {@code service}, if any. */
    private Optional<Long> pid(String service) throws IOException {
        Path file = data.resolve("run/" + service + ".pid");
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        String[] fields = Files.readString(file).trim().split(" ", 2);
        return Optional.of(Long.parseLong(fields[0]));
    }
}
