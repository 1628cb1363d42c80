package io.lahar.cli.job;

import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The object a verb acts on, as kubectl and vcctl name it: {@code NAME} and {@code -n NAMESPACE}. */
public final class ObjectName {

    @Parameters(index = "0", paramLabel = "NAME", description = "The object's name.")
    public String name;

    @Option(
            names = {"-n", "--namespace"},
            defaultValue = "default",
            description = "Namespace (default: ${DEFAULT-VALUE}).")
    public String namespace;

    /** Its path in {@code collection} ({@code /api/v1/jobs}), each segment percent-encoded. */
    public String in(String collection) {
        return collection + "/" + LaharApi.enc(namespace) + "/" + LaharApi.enc(name);
    }

    /** {@code namespace/name}, as the verbs print it. */
    public String label() {
        return namespace + "/" + name;
    }
}
