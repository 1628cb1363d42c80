package io.lahar.core.cron;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.api.CronJob;
import io.lahar.core.api.Job;
import io.lahar.core.api.Manifests;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Volcano's TestGetJobFromTemplate (cronjob_controller_util_test.go): the job of a scheduled time. */
class CronJobsTest {

    static final long TOP = Instant.parse("2025-03-11T10:00:00Z").toEpochMilli();

    /** Volcano's createVolcanoCronJob. */
    static CronJob volcanoCronJob(String timeZone, Map<String, String> annotations) {
        CronJob cj = Manifests.read("""
                apiVersion: batch.volcano.sh/v1alpha1
                kind: CronJob
                metadata: {name: mycronjob-, namespace: snazzycats, uid: 1a2b3c}
                spec:
                  schedule: "*/5 * * * *"
                  concurrencyPolicy: Forbid
                  startingDeadlineSeconds: 60
                  jobTemplate:
                    metadata:
                      labels: {a: b}
                    spec:
                      schedulerName: volcano
                      plugins: {ssh: [], env: [], svc: []}
                      minAvailable: 1
                      tasks:
                      - name: task-1
                        replicas: 1
                        template:
                          metadata: {name: pods, namespace: snazzycats}
                          spec:
                            restartPolicy: OnFailure
                            containers:
                            - name: busybox-container
                              image: busybox:latest
                              command: ["/bin/sh", "-c", "date; echo Hello from Volcano CronJob"]
                      policies:
                      - {event: PodEvicted, action: RestartJob}
                """, CronJob.class);
        CronJob.JobTemplateSpec t = cj.spec().jobTemplate();
        return cj.withSpec(cj.spec()
                .withTimeZone(timeZone)
                .withJobTemplate(new CronJob.JobTemplateSpec(t.metadata().withAnnotations(annotations), t.spec())));
    }

    @Test
    void testGetJobFromTemplate() {
        Object[][] rows = {
            {"UTC timezone and one annotation", "UTC", Map.of("x", "y"), "2025-03-11T10:00:00Z", 2},
            {"nil timezone and one annotation", null, Map.of("x", "y"), "2025-03-11T10:00:00Z", 2},
            {
                "correct timezone and multiple annotation",
                "Europe/Rome",
                Map.of("x", "y", "z", "x"),
                "2025-03-11T11:00:00+01:00",
                3
            }
        };
        for (Object[] r : rows) {
            @SuppressWarnings("unchecked")
            Job job = CronJobs.fromTemplate(volcanoCronJob((String) r[1], (Map<String, String>) r[2]), TOP);
            String name = (String) r[0];
            assertThat(job.name()).as(name).startsWith("mycronjob-").isEqualTo("mycronjob--" + TOP / 60_000);
            assertThat(job.metadata().labels()).as(name).hasSize(1);
            assertThat(job.metadata().annotations())
                    .as(name)
                    .hasSize((Integer) r[4])
                    .containsEntry(CronJob.SCHEDULED_TIMESTAMP_ANNOTATION, (String) r[3]);
            assertThat(job.namespace()).isEqualTo("snazzycats");
            assertThat(job.spec().tasks()).hasSize(1);
            assertThat(CronJobs.owner(job)).get().satisfies(o -> {
                assertThat(o.uid()).isEqualTo("1a2b3c");
                assertThat(o.blockOwnerDeletion()).isTrue();
            });
        }
    }

    @Test
    void jobNamesAreTheScheduledMinute() {
        assertThat(CronJobs.jobName("hello", TOP)).isEqualTo("hello-29028120");
        assertThat(CronJobs.jobName("hello", TOP + 59_999)).isEqualTo("hello-29028120");
        assertThat(CronJobs.jobName("hello", TOP + 60_000)).isEqualTo("hello-29028121");
    }
}
