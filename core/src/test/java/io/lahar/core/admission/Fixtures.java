package io.lahar.core.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.api.Job;
import io.lahar.core.api.JobFlow;
import io.lahar.core.api.JobTemplate;
import io.lahar.core.api.Manifest;
import io.lahar.core.api.Manifests;
import io.lahar.core.api.Queue;
import java.util.List;

/** Small YAML builders and assertions for admission tests. */
final class Fixtures {

    private Fixtures() {}

    /** A Job named {@code name} whose spec is the given YAML (indented by two spaces under spec:). */
    static Job job(String name, String specYaml) {
        return Manifests.read(
                "apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata:\n  name: " + name + "\nspec:\n"
                        + indent(specYaml),
                Job.class);
    }

    static Job job(String specYaml) {
        return job("j", specYaml);
    }

    static JobTemplate template(String name, String specYaml) {
        return Manifests.read(
                "apiVersion: flow.volcano.sh/v1alpha1\nkind: JobTemplate\nmetadata:\n  name: " + name + "\nspec:\n"
                        + indent(specYaml),
                JobTemplate.class);
    }

    static JobFlow flow(String name, String specYaml) {
        return Manifests.read(
                "apiVersion: flow.volcano.sh/v1alpha1\nkind: JobFlow\nmetadata:\n  name: " + name
                        + "\n  namespace: default\nspec:\n" + indent(specYaml),
                JobFlow.class);
    }

    static Queue queue(String yaml) {
        return Manifests.read("apiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\n" + yaml, Queue.class);
    }

    /** One task "worker" with the given replicas and a valid container. */
    static final String ONE_TASK = """
            tasks:
            - name: worker
              replicas: 2
              template:
                spec:
                  containers:
                  - name: c
                    image: busybox
            """;

    static String task(String name, int replicas) {
        return """
                - name: %s
                  replicas: %d
                  template:
                    spec:
                      containers:
                      - name: c
                        image: busybox
                """.formatted(name, replicas);
    }

    static String indent(String yaml) {
        StringBuilder sb = new StringBuilder();
        for (String line : yaml.split("\n", -1)) {
            sb.append(line.isEmpty() ? "" : "  " + line).append('\n');
        }
        return sb.toString();
    }

    static List<String> messages(AdmissionResult<?> r) {
        return r.violations().stream().map(Violation::toString).toList();
    }

    static void assertRejected(AdmissionResult<?> r, String... expected) {
        assertThat(r.accepted()).as("rejected").isFalse();
        assertThat(messages(r)).contains(expected);
    }

    static <T> T assertAccepted(AdmissionResult<T> r) {
        assertThat(messages(r)).as("violations").isEmpty();
        return r.object();
    }

    static AdmissionResult<Manifest> create(Manifest m) {
        return Admission.create(m, AdmissionContext.freshInstall());
    }
}
