package io.lahar.bridge;

/** A pod the bridge manages, as its pod watch sees it: the reference of tests and benchmarks. */
public final class WatchedPodJson {

    /**
     * Running, as a real cluster sends it, about 2.3 KB: ten annotations, six labels, an owner, a
     * container with its command, environment and resources, five conditions and a container's status.
     */
    public static final String RUNNING = """
            {"kind":"Pod","apiVersion":"v1","metadata":{"name":"train-42-worker-17","namespace":"team-a","uid":"8d7c1f0e-3b2a-4c59-9e1d-6f5a4b3c2d1e",\
            "resourceVersion":"1048213","creationTimestamp":"2026-12-05T10:00:00Z","labels":{"volcano.sh/job-name":"train-42",\
            "volcano.sh/job-namespace":"team-a","volcano.sh/task-spec":"worker","volcano.sh/queue-name":"research",\
            "volcano.sh/task-index":"17","app.kubernetes.io/managed-by":"lahar"},"annotations":{"volcano.sh/task-index":"17",\
            "volcano.sh/task-spec":"worker","volcano.sh/job-name":"train-42","volcano.sh/queue-name":"research",\
            "volcano.sh/job-version":"2","volcano.sh/job-retry-count":"0","volcano.sh/template-uid":"train-42-worker",\
            "scheduling.k8s.io/group-name":"train-42","lahar.io/job-uid":"5e0b7a6c-1d2e-4f3a-8b9c-0d1e2f3a4b5c",\
            "lahar.io/sim-duration":"30s"},"ownerReferences":[{"apiVersion":"batch.volcano.sh/v1alpha1","kind":"Job",\
            "name":"train-42","uid":"5e0b7a6c-1d2e-4f3a-8b9c-0d1e2f3a4b5c","controller":true,"blockOwnerDeletion":true}]},\
            "spec":{"restartPolicy":"Never","schedulerName":"volcano","nodeName":"node-042","terminationGracePeriodSeconds":30,\
            "containers":[{"name":"worker","image":"registry.example.com/ml/trainer:1.4.2","command":["python",\
            "-m","trainer"],"args":["--epochs","10","--batch-size","256"],"env":[{"name":"RANK","value":"17"},\
            {"name":"WORLD_SIZE","value":"32"}],"resources":{"requests":{"cpu":"4","memory":"16Gi","nvidia.com/gpu":"1"},\
            "limits":{"cpu":"4","memory":"16Gi","nvidia.com/gpu":"1"}},"imagePullPolicy":"IfNotPresent"}]},"status":{"phase":"Running",\
            "hostIP":"10.0.4.42","podIP":"10.244.17.9","qosClass":"Guaranteed","startTime":"2026-12-05T10:00:01Z",\
            "conditions":[{"type":"PodReadyToStartContainers","status":"True","lastTransitionTime":"2026-12-05T10:00:02Z"},\
            {"type":"Initialized","status":"True","lastTransitionTime":"2026-12-05T10:00:01Z"},{"type":"Ready",\
            "status":"True","lastTransitionTime":"2026-12-05T10:00:03Z"},{"type":"ContainersReady","status":"True",\
            "lastTransitionTime":"2026-12-05T10:00:03Z"},{"type":"PodScheduled","status":"True","lastTransitionTime":"2026-12-05T10:00:00Z"}],\
            "containerStatuses":[{"name":"worker","ready":true,"restartCount":0,"started":true,"image":"registry.example.com/ml/trainer:1.4.2",\
            "imageID":"registry.example.com/ml/trainer@sha256:4f1c","containerID":"containerd://7a3e9b2c","state":{"running":{"startedAt":"2026-12-05T10:00:02Z"}},\
            "lastState":{}}]}}""";

    private WatchedPodJson() {}
}
