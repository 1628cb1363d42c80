package io.lahar.bridge.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.lahar.core.job.plugins.PodLabels;
import org.junit.jupiter.api.Test;

class CreatedPodsTest {

    private static final String KEY = "ns/job-worker-0";

    @Test
    void aLateWatchEventOfThePreviousPodNeverStandsForTheNameAndItsDeletionForgetsOnlyItself() {
        CreatedPods pods = new CreatedPods();
        Pod old = pod("uid-1", 1, "10");
        Pod successor = pod("uid-2", 2, "20");

        pods.created(KEY, successor);
        pods.seen(old, false);
        pods.seen(old, true);

        assertThat(pods.get(KEY)).hasValueSatisfying(known -> {
            assertThat(known.uid()).isEqualTo("uid-2");
            assertThat(known.jobVersion()).isEqualTo(2);
        });
        pods.seen(pod("uid-2", 2, "25"), false);
        assertThat(pods.get(KEY).orElseThrow().resourceVersion()).isEqualTo(25);
        pods.seen(successor, true);
        assertThat(pods.get(KEY)).isEmpty();
    }

    private static Pod pod(String uid, int version, String resourceVersion) {
        return new PodBuilder()
                .withNewMetadata()
                .withNamespace("ns")
                .withName("job-worker-0")
                .withUid(uid)
                .withResourceVersion(resourceVersion)
                .addToAnnotations(PodLabels.JOB_VERSION, Integer.toString(version))
                .endMetadata()
                .build();
    }
}
