package io.lahar.core.job.plugins;

import static io.lahar.core.job.plugins.FrameworkPods.env;
import static io.lahar.core.job.plugins.FrameworkPods.job;
import static io.lahar.core.job.plugins.FrameworkPods.pod;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lahar.core.api.Job;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Volcano's tensorflow_test.go, then the cases its code implies and what Lahar's admission adds. */
class TensorflowPluginTest {

    private static final Job TRAIN = job("train-123", "ps:2", "worker:2", "chief:1");
    private static final String CLUSTER =
            "{\"cluster\":{\"ps\":[\"train-123-ps-0.train-123:5000\",\"train-123-ps-1.train-123:5000\"],"
                    + "\"worker\":[\"train-123-worker-0.train-123:5000\",\"train-123-worker-1.train-123:5000\"],"
                    + "\"chief\":[\"train-123-chief-0.train-123:5000\"]},";

    /** Volcano's TestTensorflow: the ps, worker and chief cases, byte for byte. */
    @ParameterizedTest(name = "{0} case")
    @CsvSource({"ps", "worker", "chief"})
    void tensorflow(String task) {
        ObjectNode pod = pod("train-123-" + task + "-0", task, "[{\"name\":\"main\"}]");
        new TensorflowPlugin(List.of("--port=5000")).onPodCreate(pod, TRAIN, task, 0);
        assertThat(env(pod))
                .containsExactly("TF_CONFIG=" + CLUSTER + "\"task\":{\"type\":\"" + task + "\",\"index\":0}}");
    }

    @Test
    void aStandAloneJobGetsNoTfConfig() {
        ObjectNode pod = pod("solo-worker-0", "worker", "[{\"name\":\"main\"}]");
        new TensorflowPlugin(List.of()).onPodCreate(pod, job("solo", "worker:1"), "worker", 0);
        assertThat(env(pod)).isEmpty();
    }

    @Test
    void renamedRolesAnIndexAndATaskOfNoRole() {
        Job job = job("tf", "params:1", "trainer:2", "eval:1", "extra:1");
        TensorflowPlugin tf = new TensorflowPlugin(List.of("--ps=params", "--worker", "trainer", "--evaluator=eval"));
        ObjectNode pod = pod("tf-trainer-1", "trainer", "[{\"name\":\"a\"},{\"name\":\"b\"}]");
        tf.onPodCreate(pod, job, "trainer", 1);
        String cluster =
                "{\"cluster\":{\"ps\":[\"tf-params-0.tf:2222\"],\"worker\":[\"tf-trainer-0.tf:2222\",\"tf-trainer-1.tf:2222\"],"
                        + "\"evaluator\":[\"tf-eval-0.tf:2222\"]},";
        assertThat(env(pod)).containsExactly("TF_CONFIG=" + cluster + "\"task\":{\"type\":\"worker\",\"index\":1}}");
        assertThat(pod.at("/spec/containers/1/env/0/value").asText())
                .isEqualTo(pod.at("/spec/containers/0/env/0/value").asText());
        // A task of no role is named by its task name and listed in no role, as Volcano's getTaskType does.
        assertThat(tf.tfConfig(job, "extra", 0).toString())
                .isEqualTo(cluster + "\"task\":{\"type\":\"extra\",\"index\":0}}");
    }

    @Test
    void admissionRejectsFlagsGoStopsAtAndPortsOutOfRange() {
        assertThat(new TensorflowPlugin(List.of("--ps=ps", "--worker=worker", "--port=2222")).validate(TRAIN.spec()))
                .isEmpty();
        assertThat(new TensorflowPlugin(List.of("--port=abc")).validate(TRAIN.spec()))
                .containsExactly("invalid value \"abc\" for flag -port: parse error");
        assertThat(new TensorflowPlugin(List.of("--port=-1")).validate(TRAIN.spec()))
                .containsExactly("--port: -1 is not a port (1 to 65535)");
        assertThat(new TensorflowPlugin(List.of("ps")).validate(TRAIN.spec()))
                .containsExactly("argument \"ps\" is not a flag, and no flag after it would be read");
    }
}
