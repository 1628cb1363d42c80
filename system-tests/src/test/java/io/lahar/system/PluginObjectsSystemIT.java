package io.lahar.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 36: the svc plugin's NetworkPolicy and the claim of an inline volume reach the cluster
 * (streams-app → lahar.pod-intents → k8s-bridge → the emulated API) and go as Volcano's do: the
 * NetworkPolicy with the plugin's other objects once the job's pods are killed, the claim with the
 * job (here deleted by its ttlSecondsAfterFinished).
 */
@ExtendWith(LaharSystemExtension.class)
class PluginObjectsSystemIT {

    static final Duration TIMEOUT = Duration.ofSeconds(60);

    @Test
    void theSvcPluginsNetworkPolicyAndAnInlineVolumesClaimAreCreatedAndReleased(LaharSystem system) {
        String job = system.submit("""
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata:
                  name: netpol-job
                spec:
                  schedulerName: %s
                  ttlSecondsAfterFinished: 0
                  plugins:
                    svc: []
                  volumes:
                  - mountPath: /data
                    volumeClaim:
                      accessModes: [ReadWriteOnce]
                      resources: {requests: {storage: 1Gi}}
                  tasks:
                  - name: work
                    replicas: 2
                    template:
                      metadata:
                        annotations:
                          lahar.io/sim-duration: 6s
                      spec:
                        containers:
                        - name: work
                          image: busybox
                """.formatted(system.schedulerName));
        String claimName = job + "-volume-0";
        Map<String, String> jobPods = Map.of("volcano.sh/job-name", job, "volcano.sh/job-namespace", system.namespace);

        JobsOnSimulatedNodesIT.awaitPhase(system, system.key(job), "Running", TIMEOUT);
        await().atMost(TIMEOUT).untilAsserted(() -> {
            NetworkPolicy policy = system.kube()
                    .network()
                    .networkPolicies()
                    .inNamespace(system.namespace)
                    .withName(job)
                    .get();
            assertThat(policy).as("the svc plugin's NetworkPolicy").isNotNull();
            assertThat(policy.getSpec().getPodSelector().getMatchLabels()).isEqualTo(jobPods);
            assertThat(policy.getSpec()
                            .getIngress()
                            .getFirst()
                            .getFrom()
                            .getFirst()
                            .getPodSelector()
                            .getMatchLabels())
                    .isEqualTo(jobPods);
        });
        // Read once, no waiting: the bridge makes a job's plugin objects before its pods, as Volcano's
        // controller does, so a job that runs has its claim.
        PersistentVolumeClaim claim = system.kube()
                .persistentVolumeClaims()
                .inNamespace(system.namespace)
                .withName(claimName)
                .get();
        assertThat(claim).as("the inline volume's claim").isNotNull();
        assertThat(claim.getSpec().getResources().getRequests().get("storage").toString())
                .isEqualTo("1Gi");
        assertThat(system.kube()
                        .pods()
                        .inNamespace(system.namespace)
                        .withName(job + "-work-0")
                        .get()
                        .getSpec()
                        .getVolumes())
                .anySatisfy(v ->
                        assertThat(v.getPersistentVolumeClaim().getClaimName()).isEqualTo(claimName));

        // Completed, then deleted at once (ttlSecondsAfterFinished: 0): the phase is gone, the transition stays.
        await().atMost(TIMEOUT)
                .until(() -> system.records.transitions(system.key(job)).stream()
                        .anyMatch(t -> "Completed".equals(t.getTo())));
        await().atMost(TIMEOUT).untilAsserted(() -> {
            assertThat(system.kube()
                            .network()
                            .networkPolicies()
                            .inNamespace(system.namespace)
                            .withName(job)
                            .get())
                    .as("released with the plugin's objects")
                    .isNull();
            assertThat(system.kube()
                            .persistentVolumeClaims()
                            .inNamespace(system.namespace)
                            .withName(claimName)
                            .get())
                    .as("deleted with the job")
                    .isNull();
        });
    }
}
