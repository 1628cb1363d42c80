package io.lahar.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Volcano's validating webhooks as a kubectl user meets them, served by the bridge and registered
 * with the cluster as bin/start has them: {@code kubectl apply} of an invalid Queue, JobFlow,
 * JobTemplate or CronJob exits 1 printing the webhook's name and every reason, and stores nothing;
 * a valid one of each is created (the JobFlow runs to its end); the default queue can not be
 * deleted; an invalid {@code kubectl patch} of a Job is refused and leaves the Job as it was.
 */
@ExtendWith(LaharSystemExtension.class)
class AdmissionWebhookSystemIT {

    private static final Path KUBECTL = Path.of("/usr/bin/kubectl");
    private static final Duration TIMEOUT = Duration.ofSeconds(90);

    @TempDir
    Path dir;

    private record Run(int code, String output) {}

    private static Run kubectl(LaharSystem system, String... args) throws Exception {
        List<String> command = new ArrayList<>(
                List.of(KUBECTL.toString(), "--kubeconfig", system.kubeconfig.toString(), "-n", system.namespace));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        return new Run(process.waitFor(), output);
    }

    private static String ok(LaharSystem system, String... args) throws Exception {
        Run run = kubectl(system, args);
        assertThat(run.code()).as(String.join(" ", args) + ": " + run.output()).isZero();
        return run.output();
    }

    private static String refused(LaharSystem system, String... args) throws Exception {
        Run run = kubectl(system, args);
        assertThat(run.code()).as(String.join(" ", args) + ": " + run.output()).isEqualTo(1);
        return run.output();
    }

    private static String example(LaharSystem system, String file) {
        return system.root().resolve("examples").resolve(file).toString();
    }

    private Path file(String name, String yaml) throws Exception {
        return Files.writeString(dir.resolve(name), yaml);
    }

    @Test
    void anInvalidObjectOfEachKindIsRefusedWithEveryReasonAndAValidOneIsCreated(LaharSystem system) throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(KUBECTL), "kubectl is not installed");

        assertThat(refused(system, "apply", "-f", example(system, "invalid-queue.yaml")))
                .contains(
                        "admission webhook \"validatequeue.volcano.sh\" denied the request: ",
                        "spec.weight: queue weight must be a positive integer",
                        "spec.guarantee.resource.cpu: guarantee[cpu]=8 must be <= capability[cpu]=4",
                        "spec.parent: parent queue \"nowhere\" not found");
        assertThat(refused(system, "apply", "-f", example(system, "invalid-jobflow-cycle.yaml")))
                .contains(
                        "admission webhook \"validatejobflow.volcano.sh\" denied the request: ",
                        "spec.flows[4].dependsOn.targets[0]: ",
                        "spec.flows: jobflow flows do not form a directed acyclic graph (DAG)");
        assertThat(refused(system, "apply", "-f", example(system, "invalid-jobtemplate.yaml")))
                .contains(
                        "admission webhook \"validatejobtemplate.lahar.io\" denied the request: ",
                        "spec.maxRetry: ",
                        "spec.tasks[0].name: ",
                        "spec.minAvailable: ");
        assertThat(refused(system, "apply", "-f", example(system, "invalid-cronjob.yaml")))
                .contains(
                        "admission webhook \"validatecronjob.volcano.sh\" denied the request: ",
                        "spec.schedule: ",
                        "spec.timeZone: ",
                        "spec.successfulJobsHistoryLimit: ",
                        "spec.jobTemplate.spec.minAvailable: ");
        assertThat(ok(system, "get", "queues,jobflows,jobtemplates,cronjobs", "-o", "name"))
                .doesNotContain("broken", "cyclic");

        String queue = "webhooks-" + system.run;
        assertThat(ok(
                        system,
                        "apply",
                        "-f",
                        file("queue.yaml", """
                        apiVersion: scheduling.volcano.sh/v1beta1
                        kind: Queue
                        metadata: {name: %s}
                        spec: {weight: 2, capability: {cpu: 4}, deserved: {cpu: 2}}
                        """.formatted(queue)).toString()))
                .contains("queue.scheduling.volcano.sh/" + queue + " created");
        assertThat(refused(system, "delete", "queue", "default"))
                .contains("admission webhook \"validatequeue.volcano.sh\" denied the request: "
                        + "metadata.name: `default` queue can not be deleted");

        String template = system.simJob("wh-step", 1, "1s")
                .replace("apiVersion: batch.volcano.sh/v1alpha1", "apiVersion: flow.volcano.sh/v1alpha1")
                .replace("kind: Job", "kind: JobTemplate");
        assertThat(ok(system, "apply", "-f", file("template.yaml", template).toString()))
                .contains("jobtemplate.flow.volcano.sh/wh-step created");
        assertThat(ok(system, "apply", "-f", file("flow.yaml", """
                        apiVersion: flow.volcano.sh/v1alpha1
                        kind: JobFlow
                        metadata: {name: wh-flow}
                        spec:
                          jobRetainPolicy: retain
                          flows:
                          - name: wh-step
                        """).toString()))
                .contains("jobflow.flow.volcano.sh/wh-flow created");
        String cronJob = """
                apiVersion: batch.volcano.sh/v1alpha1
                kind: CronJob
                metadata: {name: wh-cron}
                spec:
                  schedule: "0 0 1 1 *"
                  jobTemplate:
                    spec:
                      minAvailable: 1
                      schedulerName: %s
                      tasks:
                      - name: work
                        replicas: 1
                        template: {spec: {containers: [{name: work, image: busybox}]}}
                """.formatted(system.schedulerName);
        assertThat(ok(system, "apply", "-f", file("cron.yaml", cronJob).toString()))
                .contains("cronjob.batch.volcano.sh/wh-cron created");
        await().atMost(TIMEOUT)
                .pollInterval(Duration.ofSeconds(1))
                .until(() -> ok(system, "get", "jobflow", "wh-flow", "-o", "jsonpath={.status.state.phase}")
                        .equals("Succeed"));
        ok(system, "delete", "cronjob", "wh-cron");
        ok(system, "delete", "queue", queue);
    }

    @Test
    void anInvalidPatchOfAJobIsRefusedAndLeavesItAsItWas(LaharSystem system) throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(KUBECTL), "kubectl is not installed");
        assertThat(ok(
                        system,
                        "apply",
                        "-f",
                        file("job.yaml", system.simJob("wh-patched", 1, "120s")).toString()))
                .contains("job.batch.volcano.sh/wh-patched created");
        assertThat(refused(system, "patch", "vcjob", "wh-patched", "-p", "{\"spec\":{\"maxRetry\":-1}}"))
                .contains("admission webhook \"validatejob.volcano.sh\" denied the request: ", "spec.maxRetry: ");
        assertThat(refused(
                        system,
                        "patch",
                        "vcjob",
                        "wh-patched",
                        "--type",
                        "json",
                        "-p",
                        "[{\"op\":\"replace\",\"path\":\"/spec/minAvailable\",\"value\":5}]"))
                .contains("admission webhook \"validatejob.volcano.sh\" denied the request: ", "spec.minAvailable: ");
        GenericKubernetesResource job = system.kube()
                .genericKubernetesResources(VolcanoApiIT.JOBS)
                .inNamespace(system.namespace)
                .withName("wh-patched")
                .get();
        @SuppressWarnings("unchecked")
        Map<String, Object> spec =
                (Map<String, Object>) job.getAdditionalProperties().get("spec");
        assertThat(spec).containsEntry("minAvailable", 1).doesNotContainKey("maxRetry");
        ok(system, "delete", "vcjob", "wh-patched");
    }
}
