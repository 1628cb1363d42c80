package io.lahar.core.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.admission.AdmissionContext;
import io.lahar.core.api.Job;
import io.lahar.core.command.JobCommands;
import io.lahar.core.command.JobRequest;
import org.junit.jupiter.api.Test;

class PodEventsTest {

    @Test
    void anEventIsTakenForTheSubmittedJobOfItsUid() {
        // Submitted through the command gate, which gives the job its uid.
        Job job = JobCommands.decide(
                        null,
                        new JobRequest("r1", "test", "default", "tf", 0, new JobRequest.Submit("""
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata: {name: tf}
                spec:
                  tasks:
                  - {name: worker, replicas: 2, template: {spec: {containers: [{name: c, image: i}]}}}
                """)),
                        AdmissionContext.freshInstall())
                .next()
                .job();
        String uid = job.metadata().uid();
        assertThat(uid).isNotBlank();
        JobInfo info = new JobController()
                .apply(JobInfo.empty(), new Input.Submit(job, 0))
                .state();

        assertThat(PodEvents.notForJob(uid, info)).isEmpty();
        assertThat(PodEvents.notForJob(null, info))
                .as("an event that names no uid")
                .isEmpty();
        assertThat(PodEvents.notForJob("other-uid", info))
                .hasValue("skipped: from job uid other-uid, the job is " + uid);
        assertThat(PodEvents.notForJob(uid, JobInfo.empty())).hasValue("skipped: the job does not exist");
    }
}
