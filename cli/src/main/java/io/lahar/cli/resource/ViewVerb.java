package io.lahar.cli.resource;

import com.fasterxml.jackson.databind.JsonNode;
import io.lahar.cli.job.ApiVerb;
import io.lahar.cli.job.LaharApi;
import io.lahar.cli.job.ObjectName;
import io.lahar.cli.job.Output;
import java.io.IOException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code view NAME}: one object, described, or whole with {@code -o json|yaml}. */
@Command(name = "view", mixinStandardHelpOptions = true)
final class ViewVerb extends ApiVerb {

    /** What this verb shows. */
    private final Resource resource;

    ViewVerb(Resource resource) {
        this.resource = resource;
    }

    @Mixin
    ObjectName object;

    @Option(
            names = {"-o", "--output"},
            description = "json or yaml: the whole object instead of the description.")
    Output.Format format;

    @Override
    protected int run(LaharApi api) throws IOException, InterruptedException {
        String name = object.name;
        String namespace = object.namespace;
        LaharApi.Answer answer = api.get(resource.item(namespace, name));
        if (!answer.ok()) {
            return Output.error(err(), "view " + resource.kind() + " " + namespace + "/" + name, answer);
        }
        JsonNode object = Output.parse(answer.body());
        out().print(
                        format != null
                                ? Output.render(object, format)
                                : resource.describe().apply(object));
        return 0;
    }
}
