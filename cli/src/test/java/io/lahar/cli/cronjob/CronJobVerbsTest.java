package io.lahar.cli.cronjob;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.cli.Lahar;
import io.lahar.cli.flow.FakeApi;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code lahar cronjob} against a stand-in API: the requests it sends, what it prints, how it fails. */
class CronJobVerbsTest {

    private static final String VIEWED = """
            {"apiVersion":"batch.volcano.sh/v1alpha1","kind":"CronJob",
             "metadata":{"name":"hello","namespace":"default","creationTimestamp":"2026-11-29T10:00:00Z"},
             "spec":{"schedule":"*/5 * * * *","concurrencyPolicy":"Forbid","suspend":false,"startingDeadlineSeconds":60,
                     "successfulJobsHistoryLimit":5,"failedJobsHistoryLimit":3,"jobTemplate":{"spec":{"tasks":[]}}},
             "status":{"active":[{"kind":"Job","namespace":"default","name":"hello-29410385"}],
                       "lastScheduleTime":"2026-11-29T10:05:00Z","nextScheduleTime":"2026-11-29T10:10:00Z",
                       "jobs":[{"name":"hello-29410385","scheduledTime":"2026-11-29T10:05:00Z","phase":"Running"}],
                       "events":[{"type":"Normal","reason":"SuccessfulCreate","time":"2026-11-29T10:05:00Z",
                                  "message":"Created job hello-29410385 for CronJob default/hello"}]}}""";

    private FakeApi api;

    @BeforeEach
    void start() throws Exception {
        api = new FakeApi();
    }

    @AfterEach
    void stop() {
        api.close();
    }

    @Test
    void createPostsTheExampleAndPrintsWhatWasCreated() {
        api.reply(201, "{\"metadata\":{\"name\":\"volcano-cronjob-example\",\"namespace\":\"default\"}}");
        int code = api.lahar(
                "cronjob",
                "create",
                "-f",
                Path.of("..", "examples", "cronjob.yaml").toString());
        assertThat(code).as(api.err.toString()).isZero();
        assertThat(api.seen).singleElement().satisfies(s -> {
            assertThat(s.line()).isEqualTo("POST /api/v1/cronjobs");
            assertThat(s.body()).contains("\"kind\":\"CronJob\"", "\"schedule\":\"*/5 * * * *\"");
        });
        assertThat(api.out.toString()).contains("volcano-cronjob-example");
    }

    @Test
    void suspendAndResumePostToTheirPaths() {
        assertThat(api.lahar("cronjob", "suspend", "hello", "-n", "team")).isZero();
        assertThat(api.lahar("cronjob", "resume", "hello", "-n", "team")).isZero();
        assertThat(api.seen)
                .extracting(FakeApi.Seen::line)
                .containsExactly("POST /api/v1/cronjobs/team/hello/suspend", "POST /api/v1/cronjobs/team/hello/resume");
        assertThat(api.out.toString()).contains("Suspended", "Resumed");
    }

    @Test
    void aCronJobThatDoesNotExistExitsOne() {
        api.reply(404, "{\"message\":\"cronjob default/none not found\",\"reasons\":[]}");
        assertThat(api.lahar("cronjob", "suspend", "none")).isEqualTo(Lahar.EXIT_REJECTED);
        assertThat(api.err.toString()).contains("not found");
    }

    @Test
    void viewDescribesTheScheduleTheJobsAndTheEvents() {
        api.reply(200, VIEWED);
        assertThat(api.lahar("cronjob", "view", "hello")).isZero();
        assertThat(api.out.toString())
                .contains(
                        "Schedule:",
                        "*/5 * * * *",
                        "Forbid",
                        "hello-29410385",
                        "Running",
                        "Next Schedule Time:",
                        "2026-11-29T10:10:00Z",
                        "SuccessfulCreate");
        assertThat(api.seen).extracting(FakeApi.Seen::line).containsExactly("GET /api/v1/cronjobs/default/hello");
    }

    @Test
    void listPrintsKubectlsColumns() {
        String rows = """
                [{"namespace":"default","name":"hello","creationTimestamp":"2026-11-29T10:00:00Z","schedule":"*/5 * * * *",
                  "suspend":false,"active":1,"lastScheduleTime":"2026-11-29T10:05:00Z","nextScheduleTime":"2026-11-29T10:10:00Z"}]""";
        String table = CronJobTable.format(io.lahar.cli.job.Output.parse(rows), Instant.parse("2026-11-29T10:06:00Z"));
        assertThat(table.lines().findFirst().orElseThrow()).contains("Schedule", "Suspend", "Active", "Last-Schedule");
        assertThat(table).contains("hello", "*/5 * * * *", "<none>", "false", "60s", "6m");
    }
}
