package io.lahar.cli.resource;

import io.lahar.cli.job.LaharApi;
import io.lahar.cli.job.ObjectVerb;
import java.io.IOException;
import picocli.CommandLine.Command;

/**
 * {@code delete NAME}: one DELETE; the server's refusal (unknown, or a template an unfinished
 * JobFlow still uses) is printed with every reason and exits 1.
 */
@Command(name = "delete", mixinStandardHelpOptions = true)
final class DeleteVerb extends ObjectVerb {

    /** What this verb deletes. */
    private final Resource resource;

    DeleteVerb(Resource resource) {
        this.resource = resource;
    }

    @Override
    protected int run(LaharApi api) throws IOException, InterruptedException {
        return report(
                api.delete(object.in(resource.collection())), "delete " + resource.kind(), "Deleted", resource.kind());
    }
}
