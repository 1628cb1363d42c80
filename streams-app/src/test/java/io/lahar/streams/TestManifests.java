package io.lahar.streams;

/** Job manifests for tests that need many of a shape: tasks of given replicas, a payload to make them large. */
public final class TestManifests {

    private TestManifests() {}

    public static String job(String name, String tasks) {
        return """
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata:
                  name: %s
                spec:
                  tasks:
                %s""".formatted(name, tasks.indent(2));
    }

    public static String task(String name, long replicas, String env) {
        return """
                - name: %s
                  replicas: %d
                  template:
                    spec:
                      containers:
                      - name: c
                        image: busybox
                        env:
                        - name: PAYLOAD
                          value: "%s"
                """.formatted(name, replicas, env);
    }
}
