package io.lahar.core.admission;

import static io.lahar.core.admission.Fixtures.assertAccepted;
import static io.lahar.core.admission.Fixtures.assertRejected;
import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.api.Job;
import io.lahar.core.api.Manifests;
import org.junit.jupiter.api.Test;

/**
 * A Job's {@code volcano.sh/cooldown-time}, which its pods carry for the cdp plugin: one that is no
 * Go duration (Volcano's plugin ignores it with a warning) is refused with its path, on the Job or
 * on a task's template, at create and at update.
 */
class CooldownTimeAdmissionTest {

    static Job job(String metadata, String templateMetadata) {
        return Manifests.read("""
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata: {name: j, %s}
                spec:
                  tasks:
                  - name: worker
                    replicas: 2
                    template:
                      metadata: {%s}
                      spec:
                        containers: [{name: c, image: busybox}]
                """.formatted(metadata, templateMetadata), Job.class);
    }

    static AdmissionResult<Job> admit(Job job) {
        return JobAdmission.create(job, AdmissionContext.freshInstall());
    }

    @Test
    void aValidCooldownTimeIsAdmittedWhereverItIs() {
        assertAccepted(admit(job("annotations: {volcano.sh/cooldown-time: 600s}", "")));
        assertAccepted(admit(job("labels: {volcano.sh/cooldown-time: 10m}", "")));
        assertAccepted(admit(job("", "annotations: {volcano.sh/cooldown-time: 1h30m}")));
    }

    @Test
    void oneThatIsNoDurationIsRefusedWithItsPath() {
        assertRejected(
                admit(job("annotations: {volcano.sh/cooldown-time: 600abcde}", "")),
                "metadata.annotations.volcano.sh/cooldown-time: not a duration (e.g. 1h2m3s): \"600abcde\"");
        assertRejected(
                admit(job("labels: {volcano.sh/cooldown-time: soon}", "")),
                "metadata.labels.volcano.sh/cooldown-time: not a duration (e.g. 1h2m3s): \"soon\"");
        assertRejected(
                admit(job("", "labels: {volcano.sh/cooldown-time: \"600\"}")),
                "spec.tasks[0].template.metadata.labels.volcano.sh/cooldown-time: not a duration (e.g. 1h2m3s): \"600\"");
    }

    @Test
    void aCronJobsJobTemplateAndAJobTemplateAreHeldToTheSameRule() {
        io.lahar.core.api.CronJob cron = Manifests.read("""
                apiVersion: batch.volcano.sh/v1alpha1
                kind: CronJob
                metadata: {name: c, namespace: default}
                spec:
                  schedule: "* * * * *"
                  jobTemplate:
                    metadata: {annotations: {volcano.sh/cooldown-time: 5 minutes}}
                    spec:
                      tasks:
                      - name: w
                        replicas: 1
                        template:
                          metadata: {labels: {volcano.sh/cooldown-time: 1y}}
                          spec: {containers: [{name: c, image: busybox}]}
                """, io.lahar.core.api.CronJob.class);
        assertThat(CronJobAdmission.create(cron, AdmissionContext.freshInstall())
                        .violations())
                .extracting(Violation::path)
                .containsExactlyInAnyOrder(
                        "spec.jobTemplate.metadata.annotations.volcano.sh/cooldown-time",
                        "spec.jobTemplate.spec.tasks[0].template.metadata.labels.volcano.sh/cooldown-time");
        io.lahar.core.api.JobTemplate template = Manifests.read("""
                apiVersion: flow.volcano.sh/v1alpha1
                kind: JobTemplate
                metadata: {name: t}
                spec:
                  tasks:
                  - name: w
                    replicas: 1
                    template:
                      metadata: {annotations: {volcano.sh/cooldown-time: "-"}}
                      spec: {containers: [{name: c, image: busybox}]}
                """, io.lahar.core.api.JobTemplate.class);
        assertThat(JobTemplateAdmission.create(template, AdmissionContext.freshInstall())
                        .violations())
                .extracting(Violation::path)
                .containsExactly("spec.tasks[0].template.metadata.annotations.volcano.sh/cooldown-time");
    }

    @Test
    void andAtUpdate() {
        Job old = job("", "");
        AdmissionResult<Job> r = JobAdmission.update(
                old, job("annotations: {volcano.sh/cooldown-time: 1x}", ""), AdmissionContext.freshInstall());
        assertThat(r.accepted()).isFalse();
        assertRejected(r, "metadata.annotations.volcano.sh/cooldown-time: not a duration (e.g. 1h2m3s): \"1x\"");
    }
}
