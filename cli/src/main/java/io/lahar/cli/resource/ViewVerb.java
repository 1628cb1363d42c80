package io.lahar.cli.resource;

import com.fasterxml.jackson.databind.JsonNode;
import io.lahar.cli.job.LaharApi;
import io.lahar.cli.job.ObjectVerb;
import io.lahar.cli.job.Output;
import java.io.IOException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code view NAME}: one object, described, or whole with {@code -o json|yaml}. */
@Command(name = "view", mixinStandardHelpOptions = true)
final class ViewVerb extends ObjectVerb {

    /** What this verb shows. */
    private final Resource resource;

    ViewVerb(Resource resource) {
        this.resource = resource;
    }

    @Option(
            names = {"-o", "--output"},
            description = "json or yaml: the whole object instead of the description.")
    Output.Format format;

    @Override
    protected int run(LaharApi api) throws IOException, InterruptedException {
        LaharApi.Answer answer = api.get(object.in(resource.collection()));
        if (!answer.ok()) {
            return refused(answer, "view " + resource.kind());
        }
        JsonNode found = Output.parse(answer.body());
        out().print(
                        format != null
                                ? Output.render(found, format)
                                : resource.describe().apply(found));
        return 0;
    }
}
