package io.lahar.cli.resource;

import io.lahar.cli.Results;
import io.lahar.cli.job.ApiVerb;
import io.lahar.cli.job.LaharApi;
import io.lahar.cli.job.Output;
import java.io.IOException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code delete NAME}: one DELETE; the server's refusal (unknown, or a template an unfinished
 * JobFlow still uses) is printed with every reason and exits 1.
 */
@Command(name = "delete", mixinStandardHelpOptions = true)
final class DeleteVerb extends ApiVerb {

    /** What this verb deletes. */
    private final Resource resource;

    DeleteVerb(Resource resource) {
        this.resource = resource;
    }

    @Parameters(index = "0", paramLabel = "NAME", description = "The object's name.")
    String name;

    @Option(
            names = {"-n", "--namespace"},
            defaultValue = "default",
            description = "Namespace (default: ${DEFAULT-VALUE}).")
    String namespace;

    @Override
    protected int run(LaharApi api) throws IOException, InterruptedException {
        LaharApi.Answer answer = api.delete(resource.item(namespace, name));
        if (!answer.ok()) {
            return Output.error(err(), "delete " + resource.kind() + " " + namespace + "/" + name, answer);
        }
        out().println(Results.line("Deleted", resource.kind(), namespace + "/" + name));
        return 0;
    }
}
