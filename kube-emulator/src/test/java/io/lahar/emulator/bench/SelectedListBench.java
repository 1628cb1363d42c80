package io.lahar.emulator.bench;

import com.sun.management.OperatingSystemMXBean;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.lahar.emulator.EmbeddedCluster;
import java.lang.management.ManagementFactory;
import java.util.Map;
import java.util.Random;

/**
 * What a job's label-selected calls cost the emulated API as the objects of their kind grow: an
 * {@link EmbeddedCluster} in this JVM holding {@code groups} PodGroups of one job each, then cycles
 * of the bridge's calls for one job's PodGroup — a list by the job's labels, a delete of the
 * collection by the same labels, and the create that keeps the count — each cycle on a random
 * job, one caller. Prints the wall time and this process's CPU per cycle (the client's share does
 * not grow with {@code groups}; the API's did, when a selected list wrote and read back every
 * object of the kind). Usage: {@code ApiRequestBench --selected [groups] [cycles] [rounds]}.
 */
final class SelectedListBench {

    private static final String NS = "default";

    private SelectedListBench() {}

    static void main(String[] args) throws Exception {
        int groups = args.length > 0 ? Integer.parseInt(args[0]) : 500;
        int cycles = args.length > 1 ? Integer.parseInt(args[1]) : 1_000;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        try (EmbeddedCluster cluster = EmbeddedCluster.start(EmbeddedCluster.Options.defaults());
                KubernetesClient client = cluster.newClient()) {
            var podGroups = client.genericKubernetesResources("scheduling.volcano.sh/v1beta1", "PodGroup")
                    .inNamespace(NS);
            for (int i = 0; i < groups; i++) {
                podGroups.resource(podGroup(i)).create();
            }
            Random random = new Random(1);
            for (int round = 0; round < rounds; round++) {
                long cpu = os.getProcessCpuTime();
                long wall = System.nanoTime();
                for (int c = 0; c < cycles; c++) {
                    int job = random.nextInt(groups);
                    var selected = podGroups
                            .withLabel("volcano.sh/job-name", "job-" + job)
                            .withLabel("app.kubernetes.io/managed-by", "lahar");
                    if (selected.list().getItems().size() != 1
                            || selected.delete().size() != 1) {
                        throw new IllegalStateException("job-" + job + " did not have its one PodGroup");
                    }
                    podGroups.resource(podGroup(job)).create();
                }
                System.out.printf(
                        "%s: %d PodGroups, %d cycles (list, delete, create by labels): %.0f µs a cycle, %.0f µs of CPU%n",
                        round == 0 ? "warm-up" : "round " + round,
                        groups,
                        cycles,
                        (System.nanoTime() - wall) / 1_000.0 / cycles,
                        (os.getProcessCpuTime() - cpu) / 1_000.0 / cycles);
            }
        }
    }

    /** A PodGroup as the bridge writes one for a job of 100 pods. */
    private static GenericKubernetesResource podGroup(int job) {
        return new GenericKubernetesResourceBuilder()
                .withApiVersion("scheduling.volcano.sh/v1beta1")
                .withKind("PodGroup")
                .withNewMetadata()
                .withName("job-" + job + "-pg")
                .withNamespace(NS)
                .addToLabels("volcano.sh/job-name", "job-" + job)
                .addToLabels("app.kubernetes.io/managed-by", "lahar")
                .addToAnnotations("scheduling.k8s.io/group-name", "job-" + job + "-pg")
                .endMetadata()
                .addToAdditionalProperties(
                        "spec", Map.of("minMember", 100, "queue", "default", "minResources", Map.of("cpu", "100")))
                .build();
    }
}
