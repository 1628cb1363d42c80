package io.lahar.core.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.api.Job;
import io.lahar.core.api.Manifest;
import io.lahar.core.api.Manifests;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The seed examples are accepted in a fresh install, with Volcano's defaults. */
class ExamplesAdmissionTest {

    static List<Manifest> read(String file) throws IOException {
        return Manifests.readAll(Files.readString(Path.of("..", "examples", file)));
    }

    @Test
    void everySeedExampleIsAccepted() throws IOException {
        AdmissionContext ctx = AdmissionContext.freshInstall();
        List<Manifest> admitted = new ArrayList<>();
        for (String file : List.of(
                "priority-classes.yaml",
                "queues.yaml",
                "jobflow-templates.yaml",
                "jobflow.yaml",
                "tf-job.yaml",
                "spark-job.yaml",
                "mpi-job.yaml",
                "tf-dist-mnist.yaml",
                "mpi-pi.yaml")) {
            for (Manifest m : read(file)) {
                AdmissionResult<Manifest> r = Admission.create(m, ctx);
                assertThat(r.violations()).as(file + " " + m.name()).isEmpty();
                admitted.add(r.object());
                ctx = ctx.with(r.object());
            }
        }
        assertThat(admitted).hasSize(1 + 2 + 5 + 1 + 5);
    }

    @Test
    void sparkJobKeepsItsGangOfThree() throws IOException {
        Job spark = (Job) Admission.create(read("spark-job.yaml").get(0), AdmissionContext.freshInstall())
                .object();
        assertThat(spark.spec().minAvailable()).isEqualTo(3);
        assertThat(spark.spec().queue()).isEqualTo("default");
        assertThat(spark.spec().tasks().get(1).minAvailable()).isEqualTo(5);
    }

    @Test
    void defaultsShowInTheYaml() throws IOException {
        Job tf = (Job) Admission.create(read("tf-job.yaml").get(0), AdmissionContext.freshInstall())
                .object();
        String yaml = Manifests.toYaml(tf);
        assertThat(yaml)
                .contains(
                        "queue: default",
                        "schedulerName: volcano",
                        "maxRetry: 3",
                        "minAvailable: 6",
                        "minAvailable: 5");
    }
}
