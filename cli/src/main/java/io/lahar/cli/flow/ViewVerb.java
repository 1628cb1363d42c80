package io.lahar.cli.flow;

import com.fasterxml.jackson.databind.JsonNode;
import io.lahar.cli.job.JobVerb;
import io.lahar.cli.job.LaharApi;
import io.lahar.cli.job.Output;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;

/** {@code view NAME}: one object, described, or whole with {@code -o json|yaml}. */
public abstract class ViewVerb extends JobVerb {

    @Parameters(index = "0", paramLabel = "NAME", description = "The object's name.")
    String name;

    @Option(names = {"-n", "--namespace"}, defaultValue = "default", description = "Namespace (default: ${DEFAULT-VALUE}).")
    String namespace;

    @Option(names = {"-o", "--output"}, description = "json or yaml: the whole object instead of the description.")
    Output.Format format;

    /** What this verb shows. */
    protected abstract Resource resource();

    /** The description printed without {@code -o}. */
    protected abstract String describe(JsonNode object);

    @Override
    protected int run(LaharApi api) throws IOException, InterruptedException {
        LaharApi.Answer answer = api.get(resource().item(namespace, name));
        if (!answer.ok()) {
            return Output.error(err(), "view " + resource().kind() + " " + namespace + "/" + name, answer);
        }
        JsonNode object = Output.parse(answer.body());
        out().print(format != null ? Output.render(object, format) : describe(object));
        return 0;
    }
}
