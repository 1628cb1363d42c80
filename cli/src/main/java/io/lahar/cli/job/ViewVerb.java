package io.lahar.cli.job;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code lahar job view NAME}: one job, described, or whole with {@code -o}. */
@Command(name = "view", description = "Show one job: a description, or the whole job with -o json|yaml.")
final class ViewVerb extends ObjectVerb {

    /** How many of the newest transitions the description ends with. */
    static final int TRANSITIONS = 10;

    @Option(
            names = {"-o", "--output"},
            description = "json or yaml instead of the description.")
    Output.Format format;

    @Override
    protected int run(LaharApi api) throws IOException, InterruptedException {
        String path = object.in(JobCli.JOBS);
        LaharApi.Answer answer = api.get(path);
        if (!answer.ok()) {
            return refused(answer, "view job");
        }
        JsonNode job = Output.parse(answer.body());
        if (format != null) {
            out().print(Output.render(job, format));
            return 0;
        }
        out().print(JobDescription.describe(job));
        part(api.get(path + "/pods"), "Pods", JobDescription::pods);
        part(api.get(path + "/transitions?limit=" + TRANSITIONS), "Transitions", JobDescription::transitions);
        return 0;
    }

    /** A list the description ends with, from its own call; a note instead when that call fails, so the job still shows. */
    private void part(LaharApi.Answer answer, String title, Function<JsonNode, String> show) {
        JsonNode list = answer.ok() ? Output.parse(answer.body()) : null;
        if (list != null && list.isArray()) {
            out().print(show.apply(list));
        } else {
            out().println("\n" + title + ": not available (HTTP " + answer.status() + ")");
        }
    }
}
