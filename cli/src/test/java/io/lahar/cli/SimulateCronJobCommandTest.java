package io.lahar.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code lahar simulate} with a CronJob: admission, its controller over a script of ticks, one line per step. */
class SimulateCronJobCommandTest {

    static final Path EXAMPLE = Path.of("..", "examples", "cronjob.yaml");

    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int simulate(String script, String start, Path... files) throws Exception {
        Path s = dir.resolve("script.jsonl");
        Files.writeString(s, script);
        List<String> args = new ArrayList<>(List.of("simulate"));
        for (Path f : files) {
            args.add("-f");
            args.add(f.toString());
        }
        args.addAll(List.of("--events", s.toString(), "--start", start));
        return Lahar.run(args.toArray(String[]::new), new PrintWriter(out), new PrintWriter(err));
    }

    private List<JsonNode> lines() {
        return JsonLines.of(out.toString());
    }

    private static List<String> strings(JsonNode array) {
        return JsonLines.strings(array);
    }

    /**
     * Volcano's example: every 5 minutes, Forbid, startingDeadlineSeconds 60. The 10:10 run is
     * skipped while 10:05 runs, and not caught up later (past its deadline); 10:15 runs.
     */
    @Test
    void volcanosExampleCreatesAJobEveryFiveMinutesAndForbidsOverlap() throws Exception {
        int code = simulate("""
                {"advance":"5m"}
                {"job":"latest","phase":"Running"}
                {"advance":"5m"}
                {"advance":"2m"}
                {"job":"latest","phase":"Completed"}
                {"advance":"3m"}
                """, "2026-12-01T10:00:00Z", EXAMPLE);
        assertThat(err.toString()).isEmpty();
        assertThat(code).isZero();
        List<JsonNode> l = lines();
        assertThat(l).hasSize(7);
        assertThat(l.get(0).path("nextScheduleTime").asText()).isEqualTo("2026-12-01T10:05:00Z");
        assertThat(strings(l.get(1).path("created"))).containsExactly("volcano-cronjob-example-29935325");
        assertThat(l.get(1).path("status").path("lastScheduleTime").asText()).isEqualTo("2026-12-01T10:05:00Z");
        assertThat(l.get(1).path("status").path("active").get(0).path("name").asText())
                .isEqualTo("volcano-cronjob-example-29935325");
        assertThat(strings(l.get(3).path("created"))).isEmpty();
        assertThat(strings(l.get(3).path("events")))
                .anySatisfy(e -> assertThat(e).startsWith("ForbidConcurrent"));
        assertThat(strings(l.get(5).path("events")))
                .anySatisfy(e -> assertThat(e).startsWith("SawCompletedJob"));
        assertThat(strings(l.get(5).path("created")))
                .as("10:10 is past its 60 s deadline")
                .isEmpty();
        assertThat(strings(l.get(6).path("created"))).containsExactly("volcano-cronjob-example-29935335");
        assertThat(l.get(6)
                        .path("jobs")
                        .path("volcano-cronjob-example-29935325")
                        .asText())
                .isEqualTo("Completed");
    }

    @Test
    void aJobThatJobAdmissionRefusesIsAnEventOnTheCronJob() throws Exception {
        Path cron = dir.resolve("cron.yaml");
        Files.writeString(
                cron,
                Files.readString(EXAMPLE)
                        .replace("schedulerName: volcano", "schedulerName: volcano\n      queue: gpu"));
        int code = simulate("{\"advance\":\"5m\"}\n", "2026-12-01T10:00:00Z", cron);
        assertThat(code).isZero();
        JsonNode step = lines().get(1);
        assertThat(strings(step.path("created"))).isEmpty();
        assertThat(strings(step.path("events")))
                .anySatisfy(
                        e -> assertThat(e).startsWith("FailedCreate").contains("spec.queue: queue \"gpu\" not found"));
        assertThat(step.path("status").path("active").isMissingNode()).isTrue();
    }

    @Test
    void aScheduleThatDoesNotParseIsRejectedWithItsPath() throws Exception {
        Path cron = dir.resolve("cron.yaml");
        Files.writeString(cron, Files.readString(EXAMPLE).replace("\"*/5 * * * *\"", "\"*/5 * * *\""));
        int code = simulate("{\"advance\":\"5m\"}\n", "2026-12-01T10:00:00Z", cron);
        assertThat(code).isEqualTo(Lahar.EXIT_REJECTED);
        assertThat(err.toString())
                .contains(
                        "error: spec.schedule: schedule is not a valid cron expression: expected exactly 5 fields, found 4");
    }

    @Test
    void aBadStepNamesItsLine() throws Exception {
        int code = simulate("{\"advance\":\"5m\"}\n{\"suspend\":\"yes\"}\n", "2026-12-01T10:00:00Z", EXAMPLE);
        assertThat(code).isEqualTo(Lahar.EXIT_INPUT);
        assertThat(err.toString()).contains("line 2: suspend: expected true or false");
    }
}
