package io.lahar.bridge.mapping;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodList;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.lahar.bridge.WatchedPodJson;
import java.time.Instant;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** What the pod watch's serialization reads of a pod, and that it reads nothing else otherwise. */
class ManagedPodsTest {

    private static final KubernetesSerialization SLIM = ManagedPods.serialization();
    private static final Instant NOW = Instant.parse("2026-12-05T10:00:30Z");

    private static String event(String object) {
        return "{\"type\":\"MODIFIED\",\"object\":" + object + "}";
    }

    @Test
    void aWatchedPodKeepsWhatPodEventsAndTheInformerReadAndNothingElse() {
        Pod pod = (Pod)
                SLIM.unmarshal(event(WatchedPodJson.RUNNING), WatchEvent.class).getObject();

        assertThat(pod.getApiVersion()).isEqualTo("v1");
        assertThat(pod.getKind()).isEqualTo("Pod");
        assertThat(pod.getMetadata().getName()).isEqualTo("train-42-worker-17");
        assertThat(pod.getMetadata().getNamespace()).isEqualTo("team-a");
        assertThat(pod.getMetadata().getUid()).isEqualTo("8d7c1f0e-3b2a-4c59-9e1d-6f5a4b3c2d1e");
        assertThat(pod.getMetadata().getResourceVersion()).isEqualTo("1048213");
        assertThat(pod.getMetadata().getLabels()).hasSize(6).containsEntry("volcano.sh/task-index", "17");
        assertThat(pod.getMetadata().getAnnotations()).hasSize(10).containsEntry("volcano.sh/job-version", "2");
        assertThat(pod.getSpec().getNodeName()).isEqualTo("node-042");
        assertThat(pod.getStatus().getPhase()).isEqualTo("Running");
        assertThat(pod.getStatus().getConditions()).hasSize(5).last().satisfies(c -> {
            assertThat(c.getType()).isEqualTo("PodScheduled");
            assertThat(c.getStatus()).isEqualTo("True");
            assertThat(c.getLastTransitionTime()).isEqualTo("2026-12-05T10:00:00Z");
        });
        assertThat(pod.getStatus().getContainerStatuses()).singleElement().satisfies(c -> {
            assertThat(c.getName()).isEqualTo("worker");
            assertThat(c.getRestartCount()).isZero();
            assertThat(c.getState().getRunning()).isNull();
            assertThat(c.getImage()).isNull();
            assertThat(c.getLastState()).isNotNull();
        });

        assertThat(pod.getMetadata().getOwnerReferences()).isEmpty();
        assertThat(pod.getMetadata().getCreationTimestamp()).isNull();
        assertThat(pod.getSpec().getContainers()).isEmpty();
        assertThat(pod.getSpec().getSchedulerName()).isNull();
        assertThat(pod.getStatus().getHostIP()).isNull();
        assertThat(pod.getStatus().getStartTime()).isNull();
        assertThat(pod.getAdditionalProperties()).isEmpty();
        assertThat(PodEvents.event(pod, false, false, NOW))
                .isEqualTo(PodEvents.event(
                        KubernetesJson.SERIALIZATION.unmarshal(WatchedPodJson.RUNNING, Pod.class), false, false, NOW));
    }

    /** The informer's lists, its bookmarks, and the 410 of a watch that fell behind, which start a relist. */
    @Test
    void theInformersListsBookmarksAndErrorsAreReadAsTheyWere() {
        PodList list = SLIM.unmarshal(
                "{\"apiVersion\":\"v1\",\"kind\":\"PodList\",\"metadata\":{\"resourceVersion\":\"99\",\"continue\":\"c1\"},"
                        + "\"items\":[" + WatchedPodJson.RUNNING + "]}",
                PodList.class);
        assertThat(list.getMetadata().getResourceVersion()).isEqualTo("99");
        assertThat(list.getMetadata().getContinue()).isEqualTo("c1");
        assertThat(list.getItems()).singleElement().satisfies(pod -> {
            assertThat(pod.getMetadata().getResourceVersion()).isEqualTo("1048213");
            assertThat(pod.getSpec().getContainers()).isEmpty();
        });

        Object bookmark = SLIM.unmarshal(
                        "{\"type\":\"BOOKMARK\",\"object\":{\"kind\":\"Pod\",\"apiVersion\":\"v1\","
                                + "\"metadata\":{\"resourceVersion\":\"12\"}}}",
                        WatchEvent.class)
                .getObject();
        assertThat(bookmark)
                .isInstanceOfSatisfying(
                        Pod.class,
                        pod -> assertThat(pod.getMetadata().getResourceVersion())
                                .isEqualTo("12"));

        String gone = "{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},"
                + "\"status\":\"Failure\",\"message\":\"too old resource version\",\"reason\":\"Expired\",\"code\":410}}";
        assertThat(SLIM.unmarshal(gone, WatchEvent.class))
                .isEqualTo(KubernetesJson.SERIALIZATION.unmarshal(gone, WatchEvent.class))
                .satisfies(e -> assertThat(((Status) e.getObject()).getCode()).isEqualTo(410));
    }

    /** What fabric8 cannot read as a pod's field, the watch cannot either; what it reads, the watch reads alike. */
    @Test
    void fieldsOfOtherShapesAreReadAsFabric8ReadsThem() {
        List<String> refused = List.of(
                "\"metadata\":\"m\"",
                "\"metadata\":{\"labels\":[\"a\"]}",
                "\"metadata\":{\"name\":{\"a\":1}}",
                "\"spec\":[1]",
                "\"status\":5",
                "\"status\":{\"containerStatuses\":5}",
                "\"status\":{\"containerStatuses\":[5]}",
                "\"status\":{\"conditions\":{\"type\":\"PodScheduled\"}}",
                "\"status\":{\"containerStatuses\":[{\"restartCount\":{\"a\":1}}]}",
                "\"status\":{\"containerStatuses\":[{\"state\":[1]}]}",
                "\"status\":{\"containerStatuses\":[{\"state\":{\"terminated\":{\"exitCode\":\"x\"}}}]}");
        for (String field : refused) {
            String pod = "{\"apiVersion\":\"v1\",\"kind\":\"Pod\"," + field + "}";
            assertThatThrownBy(() -> KubernetesJson.SERIALIZATION.unmarshal(event(pod), WatchEvent.class))
                    .as(pod)
                    .isNotNull();
            assertThatThrownBy(() -> SLIM.unmarshal(event(pod), WatchEvent.class))
                    .as(pod)
                    .isNotNull();
        }
        List<String> read = List.of(
                "\"metadata\":{\"name\":\"j-w-0\",\"namespace\":\"ns\",\"uid\":\"u\",\"labels\":{\"volcano.sh/job-name\":[]}}",
                "\"metadata\":{\"name\":\"j-w-0\",\"namespace\":\"ns\",\"uid\":\"u\",\"labels\":\"\"}",
                "\"metadata\":{\"name\":\"j-w-0\",\"namespace\":\"ns\",\"uid\":\"u\",\"labels\":{\"volcano.sh/job-name\":\"j\"}},"
                        + "\"status\":{\"containerStatuses\":[{\"name\":\"c\",\"restartCount\":1.0}]}",
                "\"metadata\":{\"name\":\"j-w-0\",\"namespace\":\"ns\",\"uid\":\"u\",\"labels\":{\"volcano.sh/job-name\":\"j\"}},"
                        + "\"status\":{\"containerStatuses\":[{\"name\":\"c\",\"restartCount\":\"0o17\"}]}");
        for (String field : read) {
            String pod = "{\"apiVersion\":\"v1\",\"kind\":\"Pod\"," + field + "}";
            assertThat(outcome(SLIM, pod)).as(pod).isEqualTo(outcome(KubernetesJson.SERIALIZATION, pod));
        }
    }

    /** The pod event made of the pod the serialization reads, or the error either raised. */
    private static Object outcome(KubernetesSerialization serialization, String pod) {
        Function<String, Object> read = json -> {
            Pod read1 =
                    (Pod) serialization.unmarshal(event(json), WatchEvent.class).getObject();
            return PodEvents.event(read1, false, false, NOW);
        };
        try {
            return read.apply(pod);
        } catch (RuntimeException e) {
            return e.getClass();
        }
    }

    /** Only the pod watch's client reads pods slim: the service's mapper, made after it, reads them whole. */
    @Test
    void podsReadByAnyOtherSerializationAreWhole() {
        ObjectMapper mapper = new ObjectMapper();
        KubernetesSerialization service = new KubernetesSerialization(mapper, true);
        KubernetesJson.fast(mapper);
        assertThat(ManagedPods.serialization()).isSameAs(SLIM);

        for (KubernetesSerialization whole : List.of(service, KubernetesJson.SERIALIZATION)) {
            Pod pod = (Pod) whole.unmarshal(event(WatchedPodJson.RUNNING), WatchEvent.class)
                    .getObject();
            assertThat(pod.getSpec().getContainers())
                    .singleElement()
                    .satisfies(c -> assertThat(c.getResources().getRequests()).containsKey("nvidia.com/gpu"));
            assertThat(pod.getMetadata().getOwnerReferences()).hasSize(1);
            assertThat(whole.unmarshal(WatchedPodJson.RUNNING, Pod.class)).isEqualTo(pod);
        }
    }
}
