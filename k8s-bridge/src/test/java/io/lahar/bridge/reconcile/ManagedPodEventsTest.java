package io.lahar.bridge.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodList;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.lahar.bridge.WatchedPodJson;
import io.lahar.bridge.mapping.KubernetesJson;
import io.lahar.bridge.mapping.ManagedPods;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The pod watch's pods, read only as far as it needs ({@link ManagedPods}), make the pod events and
 * {@link CreatedPods} entries that whole pods make, whatever the pod: through the watch's own
 * handling ({@link PodWatcher#changed}), added, changed again, deleted.
 */
class ManagedPodEventsTest {

    private static final Instant NOW = Instant.parse("2026-12-05T10:00:30Z");
    /** As the service's client reads pods. */
    private static final KubernetesSerialization WHOLE = KubernetesJson.SERIALIZATION;

    private static final KubernetesSerialization SLIM = ManagedPods.serialization();

    private static final String LABELS = """
            "labels":{"volcano.sh/job-name":"j","volcano.sh/task-spec":"w","app.kubernetes.io/managed-by":"lahar"}""";

    /** Pods of every kind the watch sees, each a JSON object with apiVersion and kind. */
    static final List<String> PODS = List.of(
            WatchedPodJson.RUNNING,
            // Succeeded.
            """
            {"apiVersion":"v1","kind":"Pod","metadata":{"name":"j-w-0","namespace":"ns","uid":"u2","resourceVersion":"30",
            %s,"annotations":{"volcano.sh/job-version":"3","lahar.io/job-uid":"ju"}},
            "spec":{"nodeName":"n1","containers":[{"name":"main","image":"busybox"}]},
            "status":{"phase":"Succeeded","conditions":[{"type":"PodScheduled","status":"True",
            "lastTransitionTime":"2026-12-05T07:00:01Z"}],"containerStatuses":[{"name":"main","restartCount":0,
            "state":{"terminated":{"exitCode":0,"reason":"Completed","startedAt":"2026-12-05T07:00:02Z",
            "finishedAt":"2026-12-05T07:00:09Z"}},"lastState":{}}]}}""".formatted(LABELS),
            // Failed: an exit code and reason a container, one terminated before it runs again; evicted.
            """
            {"apiVersion":"v1","kind":"Pod","metadata":{"name":"j-w-1","namespace":"ns","uid":"u3","resourceVersion":"41",
            %s,"annotations":{"volcano.sh/task-index":"1","volcano.sh/job-version":"2"}},
            "spec":{"nodeName":"n2","containers":[{"name":"main","image":"busybox"},{"name":"side","image":"busybox"}]},
            "status":{"phase":"Failed","reason":"Evicted","message":"The node was low on resource: memory.",
            "containerStatuses":[{"name":"main","restartCount":0,"state":{"terminated":{"exitCode":3,"reason":"Error",
            "message":"boom","signal":9,"containerID":"containerd://1"}}},{"name":"side","restartCount":2,
            "state":{"running":{"startedAt":"2026-12-05T07:00:02Z"}},"lastState":{"terminated":{"exitCode":137,
            "reason":"OOMKilled"}}}]}}""".formatted(LABELS),
            // Waiting, for an image or after crashes.
            """
            {"apiVersion":"v1","kind":"Pod","metadata":{"name":"j-w-2","namespace":"ns","uid":"u4","resourceVersion":"52",
            %s},"spec":{"nodeName":"n1"},"status":{"phase":"Pending","conditions":[{"type":"PodScheduled",
            "status":"True","lastTransitionTime":"2026-12-05T07:00:01Z"},{"type":"Ready","status":"False",
            "reason":"ContainersNotReady"}],"containerStatuses":[{"name":"main","restartCount":0,"state":{"waiting":
            {"reason":"ImagePullBackOff","message":"Back-off pulling image"}}},{"name":"side","restartCount":5,
            "state":{"waiting":{"reason":"CrashLoopBackOff"}},"lastState":{"terminated":{"exitCode":1,"reason":"Error"}}}]}}""".formatted(LABELS),
            // Init containers, done and running: not the pod's containers.
            """
            {"apiVersion":"v1","kind":"Pod","metadata":{"name":"j-w-3","namespace":"ns","uid":"u5","resourceVersion":"63",
            %s},"spec":{"nodeName":"n1","initContainers":[{"name":"init","image":"busybox"}],
            "containers":[{"name":"main","image":"busybox"}]},"status":{"phase":"Pending","initContainerStatuses":
            [{"name":"init","restartCount":1,"state":{"terminated":{"exitCode":0,"reason":"Completed"}}}],
            "containerStatuses":[{"name":"main","restartCount":0,"state":{"waiting":{"reason":"PodInitializing"}}}]}}""".formatted(LABELS),
            // Being deleted.
            """
            {"apiVersion":"v1","kind":"Pod","metadata":{"name":"j-w-4","namespace":"ns","uid":"u6","resourceVersion":"74",
            "deletionTimestamp":"2026-12-05T07:00:05Z","deletionGracePeriodSeconds":30,"finalizers":["x/y"],%s},
            "spec":{"nodeName":"n1"},"status":{"phase":"Running","containerStatuses":[{"name":"main","restartCount":0,
            "state":{"running":{}}}]}}""".formatted(LABELS),
            // Fields missing: no spec, status, annotations; a version that is no number; no index in the name.
            """
            {"apiVersion":"v1","kind":"Pod","metadata":{"name":"lonely","namespace":"ns","uid":"u7",
            "resourceVersion":"x7",%s}}""".formatted(LABELS),
            """
            {"apiVersion":"v1","kind":"Pod","metadata":{"name":"j-w-5","namespace":"ns","uid":"u8","resourceVersion":"85",
            %s},"spec":{},"status":{"conditions":[{"type":"PodScheduled","status":"False"}]}}""".formatted(LABELS),
            """
            {"apiVersion":"v1","kind":"Pod","metadata":{"name":"j-w-6","namespace":"ns","uid":"u9","resourceVersion":"86",
            %s},"status":{"phase":"Running","conditions":[{"type":"PodScheduled","status":"True"}]}}""".formatted(LABELS),
            """
            {"apiVersion":"v1","kind":"Pod","metadata":{"name":"j-w-7","namespace":"ns","uid":"u10","resourceVersion":"87",
            %s},"status":{"phase":"Running","conditions":[{"type":"PodScheduled","status":"True",
            "lastTransitionTime":"yesterday"}]}}""".formatted(LABELS),
            // Not a job's pod (no job name): no event, but known.
            """
            {"apiVersion":"v1","kind":"Pod","metadata":{"name":"other-0","namespace":"ns","uid":"u11","resourceVersion":"88",
            "labels":{"app.kubernetes.io/managed-by":"lahar"}},"status":{"phase":"Running"}}""",
            // No uid: not known.
            """
            {"apiVersion":"v1","kind":"Pod","metadata":{"name":"j-w-8","namespace":"ns","resourceVersion":"89",%s},
            "status":{"phase":"Running"}}""".formatted(LABELS),
            // Fields no model knows, at every level.
            """
            {"apiVersion":"v1","kind":"Pod","future":{"a":[1,{"b":null}],"c":"d"},"metadata":{"name":"j-w-9",
            "namespace":"ns","uid":"u12","resourceVersion":"90","future":[true,false],%s},"spec":{"future":{"x":1},
            "nodeName":"n3","containers":[{"name":"main","future":2}]},"status":{"future":"f","phase":"Failed",
            "conditions":[{"future":{},"type":"PodScheduled","status":"True","lastTransitionTime":"2026-12-05T07:00:01Z"}],
            "containerStatuses":[{"future":[[]],"name":"main","restartCount":1,"state":{"future":{},"terminated":
            {"future":{"y":[1]},"exitCode":2,"reason":"Error"}},"lastState":{"future":1,"waiting":{"future":2,
            "reason":"ContainerCreating"}}}]}}""".formatted(LABELS),
            // Fields in unusual orders: apiVersion and kind last, or between the others.
            """
            {"status":{"containerStatuses":[{"state":{"terminated":{"reason":"Error","exitCode":7}},"restartCount":3,
            "name":"main"}],"phase":"Failed"},"spec":{"containers":[{"name":"main"}],"nodeName":"n4"},
            "metadata":{"annotations":{"volcano.sh/job-version":"5"},%s,"resourceVersion":"91","uid":"u13",
            "namespace":"ns","name":"j-w-10"},"kind":"Pod","apiVersion":"v1"}""".formatted(LABELS),
            """
            {"metadata":{"name":"j-w-11","namespace":"ns","uid":"u14","resourceVersion":"92",%s},"apiVersion":"v1",
            "spec":{"nodeName":"n1"},"kind":"Pod","status":{"phase":"Running"}}""".formatted(LABELS),
            // Nulls where objects, lists, maps and values go.
            """
            {"apiVersion":"v1","kind":"Pod","metadata":{"name":"j-w-12","namespace":"ns","uid":"u15","resourceVersion":"93",
            "labels":{"volcano.sh/job-name":"j","volcano.sh/task-spec":null},"annotations":null},"spec":null,
            "status":{"phase":null,"reason":null,"conditions":null,"containerStatuses":[{"name":"c","state":null,
            "lastState":{"terminated":null,"waiting":null},"restartCount":null},{"name":"d","state":{"terminated":
            {"exitCode":null,"reason":null}}}]}}""",
            """
            {"apiVersion":"v1","kind":"Pod","metadata":{"name":"j-w-13","namespace":"ns","uid":"u16","resourceVersion":"94",
            %s},"status":null}""".formatted(LABELS),
            // A null container status: pod events cannot be made of it, whole or not.
            """
            {"apiVersion":"v1","kind":"Pod","metadata":{"name":"j-w-14","namespace":"ns","uid":"u17","resourceVersion":"95",
            %s},"status":{"phase":"Running","containerStatuses":[null]}}""".formatted(LABELS),
            // Scalars of other types, as fabric8 reads them: numbers as text, Go's integers from text.
            """
            {"apiVersion":"v1","kind":"Pod","metadata":{"name":"j-w-15","namespace":"ns","uid":"u18","resourceVersion":96,
            "labels":{"volcano.sh/job-name":"j","volcano.sh/task-spec":7,"volcano.sh/job-version":4,
            "volcano.sh/task-index":true}},"spec":{"nodeName":12},"status":{"phase":"Failed","reason":false,
            "containerStatuses":[{"name":"main","restartCount":"2","state":{"terminated":{"exitCode":"137",
            "reason":"OOMKilled"}}}]}}""",
            // The same field twice: the last one counts.
            """
            {"apiVersion":"v1","kind":"Pod","metadata":{"name":"j-w-16","namespace":"ns","uid":"u19","resourceVersion":"97",
            "labels":{"volcano.sh/job-name":"first"},%s,"uid":"u20"},"status":{"phase":"Pending","phase":"Running",
            "containerStatuses":[{"name":"a","state":{"waiting":{"reason":"x"}},"state":{"terminated":{"exitCode":1}}}]}}""".formatted(LABELS));

    @Test
    void theWatchsPodsMakeThePodEventsAndEntriesOfWholePods() {
        for (String pod : PODS) {
            String event = "{\"type\":\"MODIFIED\",\"object\":" + pod + "}";
            Pod whole = (Pod) WHOLE.unmarshal(event, WatchEvent.class).getObject();
            Pod slim = (Pod) SLIM.unmarshal(event, WatchEvent.class).getObject();
            assertThat(outcome(slim)).as(pod).isEqualTo(outcome(whole));
            assertThat(slim.getKind()).isEqualTo("Pod");
        }
        assertThat(outcome((Pod) SLIM.unmarshal(
                                        "{\"type\":\"ADDED\",\"object\":" + WatchedPodJson.RUNNING + "}",
                                        WatchEvent.class)
                                .getObject())
                        .sent())
                .as("a job's pod makes events")
                .hasSize(2);
    }

    /** A list's items come without apiVersion and kind, as the informer's lists and relists read them. */
    @Test
    void theWatchsListsMakeThePodEventsAndEntriesOfWholeLists() {
        String list = "{\"apiVersion\":\"v1\",\"kind\":\"PodList\",\"metadata\":{\"resourceVersion\":\"99\"},"
                + "\"items\":["
                + String.join(
                        ",",
                        PODS.stream()
                                .map(pod -> pod.replace("\"apiVersion\":\"v1\",", "")
                                        .replace("\"kind\":\"Pod\",", "")
                                        .replace(",\"kind\":\"Pod\"", "")
                                        .replace(",\"apiVersion\":\"v1\"", ""))
                                .toList())
                + "]}";
        List<Pod> whole = WHOLE.unmarshal(list, PodList.class).getItems();
        List<Pod> slim = SLIM.unmarshal(list, PodList.class).getItems();
        assertThat(slim).hasSameSizeAs(PODS);
        for (int i = 0; i < whole.size(); i++) {
            assertThat(outcome(slim.get(i))).as(PODS.get(i)).isEqualTo(outcome(whole.get(i)));
        }
    }

    /** What the watch sent and knew of a pod after seeing it, seeing it again, and seeing it deleted. */
    private record Outcome(List<Object> sent, Optional<CreatedPods.Created> seen, Optional<CreatedPods.Created> gone) {}

    private static Outcome outcome(Pod pod) {
        ListSink sink = new ListSink();
        CreatedPods known = new CreatedPods();
        PodWatcher watcher = new PodWatcher(
                null, sink, new EngineDeletions(), Clock.fixed(NOW, ZoneOffset.UTC), 0, Optional.empty(), known);
        String key = pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
        watcher.changed(pod, false);
        watcher.changed(pod, false);
        Optional<CreatedPods.Created> seen = known.get(key);
        watcher.changed(pod, true);
        return new Outcome(new ArrayList<>(sink.sent), seen, known.get(key));
    }
}
