package io.lahar.core.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.api.Job;
import io.lahar.core.api.JobStatus;
import org.junit.jupiter.api.Test;

class PodGroupDecisionsTest {

    private static JobInfo atVersion(int version) {
        Job job = TestJobs.job("tf", "", "worker:2");
        JobStatus status =
                new JobStatus(null, null, null, null, null, null, null, null, null, version, null, null, null, null);
        return new JobInfo(job.withStatus(status), null, null, null, null, null, 0, false, null);
    }

    @Test
    void aDecisionIsTakenForTheJobsCurrentPodGroupOnly() {
        JobInfo job = atVersion(2);
        String group = PodGroups.name(job.job());

        assertThat(PodGroupDecisions.notForJob(3, group, 2, 3, job)).isEmpty();
        assertThat(PodGroupDecisions.notForJob(3, group, null, 3, job))
                .as("written before decisions carried the version")
                .isEmpty();
        assertThat(PodGroupDecisions.notForJob(3, group, 1, 3, job))
                .hasValue("skipped: about the pod group of job version 1, the job is at version 2");
        assertThat(PodGroupDecisions.notForJob(3, group, 2, 4, job)).hasValue("dropped: epoch older than 4");
        assertThat(PodGroupDecisions.notForJob(3, "other-pg", 2, 3, job)).hasValue("skipped: not the job's pod group");
        assertThat(PodGroupDecisions.notForJob(3, group, 2, 3, JobInfo.empty()))
                .hasValue("skipped: the job does not exist");
    }

    @Test
    void aJobWithoutAStatusIsAtVersionZero() {
        assertThat(JobInfo.empty().version()).isZero();
        assertThat(atVersion(2).version()).isEqualTo(2);
    }
}
