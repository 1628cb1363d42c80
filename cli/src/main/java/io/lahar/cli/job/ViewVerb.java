package io.lahar.cli.job;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code lahar job view NAME}: one job, described, or whole with {@code -o}. */
@Command(name = "view", description = "Show one job: a description, or the whole job with -o json|yaml.")
final class ViewVerb extends ApiVerb {

    /** How many of the newest transitions the description ends with. */
    static final int TRANSITIONS = 10;

    @Mixin
    ObjectName object;

    @Option(
            names = {"-o", "--output"},
            description = "json or yaml instead of the description.")
    Output.Format format;

    @Override
    protected int run(LaharApi api) throws IOException, InterruptedException {
        String name = object.name;
        String namespace = object.namespace;
        LaharApi.Answer answer = api.get("/api/v1/jobs/" + LaharApi.enc(namespace) + "/" + LaharApi.enc(name));
        if (!answer.ok()) {
            return Output.error(err(), "view job " + namespace + "/" + name, answer);
        }
        JsonNode job = Output.parse(answer.body());
        if (format != null) {
            out().print(Output.render(job, format));
            return 0;
        }
        out().print(JobDescription.describe(job));
        LaharApi.Answer pods = api.get("/api/v1/jobs/" + LaharApi.enc(namespace) + "/" + LaharApi.enc(name) + "/pods");
        JsonNode podList = pods.ok() ? Output.parse(pods.body()) : null;
        if (podList != null && podList.isArray()) {
            out().print(JobDescription.pods(podList));
        } else {
            out().println("\nPods: not available (HTTP " + pods.status() + ")");
        }
        LaharApi.Answer transitions = api.get("/api/v1/jobs/" + LaharApi.enc(namespace) + "/" + LaharApi.enc(name)
                + "/transitions?limit=" + TRANSITIONS);
        JsonNode list = transitions.ok() ? Output.parse(transitions.body()) : null;
        if (list != null && list.isArray()) {
            out().print(JobDescription.transitions(list));
        } else {
            out().println("\nTransitions: not available (HTTP " + transitions.status() + ")");
        }
        return 0;
    }
}
