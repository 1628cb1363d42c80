package io.lahar.cli.job;

import com.fasterxml.jackson.databind.JsonNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;

/** {@code lahar job view NAME}: one job, described, or whole with {@code -o}. */
@Command(name = "view", description = "Show one job: a description, or the whole job with -o json|yaml.")
final class JobView extends JobVerb {

    @Parameters(index = "0", paramLabel = "NAME", description = "The job's name.")
    String name;

    @Option(names = {"-n", "--namespace"}, defaultValue = "default", description = "Namespace (default: ${DEFAULT-VALUE}).")
    String namespace;

    @Option(names = {"-o", "--output"}, description = "json or yaml instead of the description.")
    Output.Format format;

    @Override
    protected int run(LaharApi api) throws IOException, InterruptedException {
        LaharApi.Answer answer = api.get("/api/v1/jobs/" + LaharApi.enc(namespace) + "/" + LaharApi.enc(name));
        if (!answer.ok()) {
            return Output.error(err(), "view job " + namespace + "/" + name, answer);
        }
        JsonNode job = Output.parse(answer.body());
        out().print(format != null ? Output.render(job, format) : JobDescription.describe(job));
        return 0;
    }
}
