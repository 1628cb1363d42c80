package io.lahar.streams.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.api.Job;
import io.lahar.core.api.JobPhase;
import io.lahar.core.api.JobState;
import io.lahar.core.api.JobStatus;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which pending job statuses a newer one may replace within one commit. */
class StatusCoalescerTest {

    private static Job job(JobPhase phase, Map<String, Integer> taskPods) {
        Map<String, Integer> counts = new LinkedHashMap<>(taskPods);
        JobStatus status = new JobStatus(
                new JobState(phase, null, null, null),
                1,
                Map.of("w", new JobStatus.TaskState(counts)),
                0,
                0,
                0,
                0,
                0,
                0,
                1,
                0,
                null,
                null,
                null);
        return new Job("batch.volcano.sh/v1alpha1", "Job", null, null, status);
    }

    @Test
    void aCountChangeWithinTheSamePhasesReplacesTheOlderStatus() {
        Job older = job(JobPhase.Running, Map.of("Running", 3, "Pending", 1));
        Job newer = job(JobPhase.Running, Map.of("Running", 4, "Pending", 1));
        assertThat(StatusCoalescer.replaces(older, newer, () -> null)).isTrue();
    }

    @Test
    void aNewTaskPhaseBesideTheOldOnesStillReplaces() {
        Job older = job(JobPhase.Running, Map.of("Running", 4));
        Job newer = job(JobPhase.Running, Map.of("Running", 3, "Succeeded", 1));
        assertThat(StatusCoalescer.replaces(older, newer, () -> null)).isTrue();
    }

    @Test
    void aJobPhaseChangeKeepsTheOlderStatus() {
        // Running then Completed in one commit: a reader waiting for Running must still see it.
        Job older = job(JobPhase.Running, Map.of("Running", 3, "Succeeded", 1));
        Job newer = job(JobPhase.Completed, Map.of("Running", 3, "Succeeded", 1));
        assertThat(StatusCoalescer.replaces(older, newer, () -> null)).isFalse();
    }

    @Test
    void aTaskPhaseThatDisappearsKeepsTheOlderStatus() {
        // A taskStatus probe on w/Running must see the pods Running even if they all succeed at once.
        Job older = job(JobPhase.Running, Map.of("Running", 1, "Succeeded", 3));
        Job newer = job(JobPhase.Running, Map.of("Running", 0, "Succeeded", 4));
        assertThat(StatusCoalescer.replaces(older, newer, () -> null)).isFalse();
        // The other way round: the newer one shows everything the older one did (Running 0 shows nothing).
        assertThat(StatusCoalescer.replaces(newer, older, () -> null)).isTrue();
    }

    @Test
    void aTaskThatDisappearsKeepsTheOlderStatus() {
        Job older = job(JobPhase.Running, Map.of("Running", 2));
        Job newer = new Job(
                "batch.volcano.sh/v1alpha1",
                "Job",
                null,
                null,
                new JobStatus(
                        new JobState(JobPhase.Running, null, null, null),
                        1,
                        Map.of("ps", new JobStatus.TaskState(Map.of("Running", 2))),
                        0,
                        0,
                        0,
                        0,
                        0,
                        0,
                        1,
                        0,
                        null,
                        null,
                        null));
        assertThat(StatusCoalescer.replaces(older, newer, () -> null)).isFalse();
    }

    @Test
    void tombstonesNeverHideAStatusNorAreHiddenByOne() {
        Job status = job(JobPhase.Completed, Map.of("Succeeded", 4));
        assertThat(StatusCoalescer.replaces(status, null, () -> null)).isFalse();
        assertThat(StatusCoalescer.replaces(null, status, () -> null)).isFalse();
        assertThat(StatusCoalescer.replaces(null, null, () -> null)).isTrue();
    }

    @Test
    void whatTheLastSentStatusShowedNeedNotBeShownAgain() {
        // The job's last record said Pending with its pods Pending; seven pods run, then the eighth
        // makes the job Running within the same commit: the Pending status between tells no reader
        // anything new.
        Job shown = job(JobPhase.Pending, Map.of("Pending", 8));
        Job older = job(JobPhase.Pending, Map.of("Running", 7, "Pending", 1));
        Job newer = job(JobPhase.Running, Map.of("Running", 8));
        assertThat(StatusCoalescer.replaces(older, newer, () -> shown)).isTrue();
        // Not known what was sent (after a restart): the older one goes out.
        assertThat(StatusCoalescer.replaces(older, newer, () -> null)).isFalse();
    }

    @Test
    void aPhaseNeitherShownBeforeNorAfterKeepsTheOlderStatus() {
        Job shown = job(JobPhase.Running, Map.of("Running", 4));
        Job older = job(JobPhase.Restarting, Map.of("Running", 4));
        Job newer = job(JobPhase.Running, Map.of("Pending", 4));
        assertThat(StatusCoalescer.replaces(older, newer, () -> shown))
                .as("job phase Restarting")
                .isFalse();

        Job olderPods = job(JobPhase.Running, Map.of("Running", 3, "Failed", 1));
        Job newerPods = job(JobPhase.Running, Map.of("Running", 3, "Pending", 1));
        assertThat(StatusCoalescer.replaces(olderPods, newerPods, () -> shown))
                .as("pod phase Failed")
                .isFalse();
        Job shownFailed = job(JobPhase.Running, Map.of("Running", 3, "Failed", 1));
        assertThat(StatusCoalescer.replaces(olderPods, newerPods, () -> shownFailed))
                .isTrue();
    }

    @Test
    void whatWasShownOnlyEverAllowsMoreToBeReplaced() {
        // replaces(older, newer, lastShown) asks without the last status shown first and looks it
        // up only on a no: the rule it asks (showsAllOf) must say yes with any status shown when it
        // says yes without one.
        java.util.List<Job> jobs = new java.util.ArrayList<>();
        jobs.add(null);
        for (JobPhase phase : new JobPhase[] {JobPhase.Pending, JobPhase.Running, JobPhase.Completed}) {
            jobs.add(job(phase, Map.of("Pending", 2)));
            jobs.add(job(phase, Map.of("Running", 1, "Pending", 1)));
            jobs.add(job(phase, Map.of("Running", 2)));
            jobs.add(job(phase, Map.of("Running", 0, "Succeeded", 2)));
        }
        int checked = 0;
        for (Job older : jobs) {
            for (Job newer : jobs) {
                // A tombstone's answer never asks what was shown (tombstonesNeverHideAStatusNorAreHiddenByOne).
                if (older == null || newer == null || !StatusCoalescer.replaces(older, newer, () -> null)) {
                    continue;
                }
                for (Job shown : jobs) {
                    assertThat(StatusCoalescer.showsAllOf(older, newer, shown))
                            .as("%s replaced by %s, then shown %s", older, newer, shown)
                            .isTrue();
                    checked++;
                }
            }
        }
        assertThat(checked).isGreaterThan(100);
    }
}
