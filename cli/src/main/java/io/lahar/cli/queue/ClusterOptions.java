package io.lahar.cli.queue;

import picocli.CommandLine.Option;

/** Where the topics are: Kafka and the schema registry, from options or LAHAR_BOOTSTRAP / LAHAR_REGISTRY. */
public final class ClusterOptions {

    @Option(names = "--bootstrap", defaultValue = "${env:LAHAR_BOOTSTRAP}", paramLabel = "HOST:PORT",
            description = "Kafka bootstrap servers (default: $LAHAR_BOOTSTRAP).")
    String bootstrap;

    @Option(names = "--registry", defaultValue = "${env:LAHAR_REGISTRY}", paramLabel = "URL",
            description = "Apicurio Registry v3 API URL (default: $LAHAR_REGISTRY).")
    String registry;

    /** The reason the options can not be used, or null when both are set. */
    String missing() {
        if (bootstrap == null || bootstrap.isBlank()) {
            return "--bootstrap (or LAHAR_BOOTSTRAP) is required";
        }
        if (registry == null || registry.isBlank()) {
            return "--registry (or LAHAR_REGISTRY) is required";
        }
        return null;
    }

    QueueTopics topics() {
        return new QueueTopics(bootstrap, registry);
    }
}
