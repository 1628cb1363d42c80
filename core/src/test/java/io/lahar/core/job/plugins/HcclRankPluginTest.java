package io.lahar.core.job.plugins;

import static io.lahar.core.job.plugins.FrameworkPods.job;
import static io.lahar.core.job.plugins.FrameworkPods.pod;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lahar.core.api.Job;
import io.lahar.core.job.JobPods;
import io.lahar.core.job.TestJobs;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Volcano's hcclrank_test.go (the OnPodCreate tables and TestAddFlags), then the plugin beside pytorch. */
class HcclRankPluginTest {

    private static String rank(ObjectNode pod) {
        return pod.at("/metadata/annotations")
                .path(HcclRankPlugin.RANK_ANNOTATION)
                .asText(null);
    }

    @Test
    void podAlreadyHasHcclRankAnnotation() {
        ObjectNode pod = pod("test-pod", "default", "[]");
        ((ObjectNode) pod.at("/metadata/annotations")).put(HcclRankPlugin.RANK_ANNOTATION, "1");
        new HcclRankPlugin(List.of()).onPodCreate(pod, job("test-job", "master:1"), "default", 0);
        assertThat(rank(pod)).isEqualTo("1");
    }

    @Test
    void podHasRankEnvironmentVariable() {
        ObjectNode pod =
                pod("test-pod", "default", "[{\"name\":\"container1\",\"env\":[{\"name\":\"RANK\",\"value\":\"5\"}]}]");
        new HcclRankPlugin(List.of()).onPodCreate(pod, job("test-job", "master:1"), "default", 0);
        assertThat(rank(pod)).isEqualTo("5");
    }

    /** TestHcclrankPlugin_OnPodCreate's master and worker cases, _WithCustomTaskNames and _EdgeCases' zero masters. */
    @ParameterizedTest(name = "{0} {1}-{2} of {3}:{4}, {5}:{6} -> {7}")
    @CsvSource({
        "'',              master,        2, master,        3, worker,        2, 2",
        "'',              worker,        1, master,        2, worker,        3, 3",
        "--master=custom-master --worker=custom-worker, custom-master, 3, custom-master, 5, custom-worker, 3, 3",
        "--master=custom-master --worker=custom-worker, custom-worker, 2, custom-master, 4, custom-worker, 3, 6",
        "'',              worker,        0, master,        0, worker,        2, 0"
    })
    void rankFromTheTaskIndex(
            String args,
            String task,
            int index,
            String master,
            int masters,
            String worker,
            int workers,
            String expected) {
        ObjectNode pod = pod("test-pod", task, "[]");
        List<String> a = args.isEmpty() ? List.of() : List.of(args.split(" "));
        new HcclRankPlugin(a)
                .onPodCreate(pod, job("test-job", master + ":" + masters, worker + ":" + workers), task, index);
        assertThat(rank(pod)).isEqualTo(expected);
    }

    @Test
    void aPodOfAnotherTaskGetsNoRank() {
        ObjectNode pod = pod("test-job-extra-0", "extra", "[]");
        new HcclRankPlugin(List.of()).onPodCreate(pod, job("test-job", "master:1", "extra:1"), "extra", 0);
        assertThat(rank(pod)).isNull();
    }

    /** TestAddFlags: "--master test-master --worker test-worker" as separate arguments. */
    @Test
    void flagsAsSeparateArguments() {
        HcclRankPlugin p = new HcclRankPlugin(List.of("--master", "test-master", "--worker", "test-worker"));
        ObjectNode pod = pod("p", "test-worker", "[]");
        p.onPodCreate(pod, job("j", "test-master:2", "test-worker:1"), "test-worker", 0);
        assertThat(rank(pod)).isEqualTo("2");
        assertThat(p.validate(job("j", "test-master:2").spec())).isEmpty();
    }

    @Test
    void besidePytorchItTakesPytorchsRank() {
        Job job = TestJobs.admitted("""
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata: {name: npu}
                spec:
                  plugins: {hcclrank: [], pytorch: []}
                  tasks:
                  - {name: master, replicas: 1, template: {spec: {containers: [{name: c, image: i}]}}}
                  - {name: worker, replicas: 2, template: {spec: {containers: [{name: c, image: i}]}}}
                """);
        ObjectNode pod = JobPods.create(
                job,
                job.spec().tasks().get(1),
                1,
                0,
                0,
                "npu-pg",
                JobPluginRegistry.defaults().plugins(job.spec().plugins()));
        assertThat(rank(pod)).isEqualTo("2");
        assertThat(FrameworkPods.env(pod)).contains("RANK=2");
    }

    @Test
    void admissionRejectsAJobWithNeitherRoleAndFlagsGoStopsAt() {
        assertThat(new HcclRankPlugin(List.of())
                        .validate(job("j", "ps:1", "trainer:2").spec()))
                .containsExactly(
                        "neither the master task \"master\" nor the worker task \"worker\" was found: the hcclrank plugin ranks their pods");
        assertThat(new HcclRankPlugin(List.of("-master=ps", "-worker", "trainer"))
                        .validate(job("j", "ps:1", "trainer:2").spec()))
                .isEmpty();
        assertThat(new HcclRankPlugin(List.of("---master=ps"))
                        .validate(job("j", "master:1").spec()))
                .containsExactly("bad flag syntax: ---master=ps");
    }
}
