package io.lahar.cli.resource;

import io.lahar.cli.Results;
import io.lahar.cli.job.ApiVerb;
import io.lahar.cli.job.LaharApi;
import io.lahar.cli.job.ObjectName;
import io.lahar.cli.job.Output;
import java.io.IOException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

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

    @Mixin
    ObjectName object;

    @Override
    protected int run(LaharApi api) throws IOException, InterruptedException {
        String name = object.name;
        String namespace = object.namespace;
        LaharApi.Answer answer = api.delete(resource.item(namespace, name));
        if (!answer.ok()) {
            return Output.error(err(), "delete " + resource.kind() + " " + namespace + "/" + name, answer);
        }
        out().println(Results.line("Deleted", resource.kind(), namespace + "/" + name));
        return 0;
    }
}
