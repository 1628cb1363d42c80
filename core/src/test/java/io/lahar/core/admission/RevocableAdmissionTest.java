package io.lahar.core.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.api.CronJob;
import io.lahar.core.api.JobTemplate;
import io.lahar.core.api.Manifests;
import org.junit.jupiter.api.Test;

/**
 * The tdm plugin's annotations (a revocable zone, a disruption budget) in what makes Jobs later: a
 * CronJob's jobTemplate and a JobFlow's JobTemplate are held to the rule a Job is, with the paths of
 * their own manifests, so no Job made from them carries one the scheduler could not carry out.
 */
class RevocableAdmissionTest {

    @Test
    void aCronJobsJobTemplateIsHeldToTheJobsRule() {
        CronJob cron = Manifests.read("""
                apiVersion: batch.volcano.sh/v1alpha1
                kind: CronJob
                metadata: {name: c, namespace: default}
                spec:
                  schedule: "* * * * *"
                  jobTemplate:
                    metadata: {annotations: {volcano.sh/revocable-zone: rz1}}
                    spec:
                      tasks:
                      - name: w
                        replicas: 1
                        template:
                          metadata: {annotations: {volcano.sh/jdb-min-available: "0"}}
                          spec: {containers: [{name: c, image: busybox}]}
                """, CronJob.class);
        assertThat(CronJobAdmission.create(cron, AdmissionContext.freshInstall())
                        .violations())
                .extracting(Violation::path)
                .containsExactlyInAnyOrder(
                        "spec.jobTemplate.metadata.annotations.volcano.sh/revocable-zone",
                        "spec.jobTemplate.spec.tasks[0].template.metadata.annotations.volcano.sh/jdb-min-available");
    }

    @Test
    void aJobTemplatesTasksAreHeldToTheJobsRule() {
        JobTemplate template = Manifests.read("""
                apiVersion: flow.volcano.sh/v1alpha1
                kind: JobTemplate
                metadata: {name: t}
                spec:
                  tasks:
                  - name: w
                    replicas: 1
                    template:
                      metadata: {annotations: {volcano.sh/jdb-max-unavailable: "100%"}}
                      spec: {containers: [{name: c, image: busybox}]}
                """, JobTemplate.class);
        assertThat(JobTemplateAdmission.create(template, AdmissionContext.freshInstall())
                        .violations())
                .extracting(Violation::path)
                .containsExactly("spec.tasks[0].template.metadata.annotations.volcano.sh/jdb-max-unavailable");
    }
}
