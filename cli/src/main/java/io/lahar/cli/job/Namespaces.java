package io.lahar.cli.job;

import picocli.CommandLine.Option;

/** Which namespaces a list covers: {@code -n NAMESPACE} (default {@code default}) or {@code -A}, as kubectl's. */
public final class Namespaces {

    @Option(
            names = {"-n", "--namespace"},
            defaultValue = "default",
            description = "Namespace (default: ${DEFAULT-VALUE}).")
    String namespace;

    @Option(
            names = {"-A", "--all-namespaces"},
            description = "Every namespace.")
    boolean all;

    /** The namespace to filter on, or null for every namespace. */
    public String only() {
        return all ? null : namespace;
    }
}
