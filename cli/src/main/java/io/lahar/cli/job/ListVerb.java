package io.lahar.cli.job;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code lahar job list}: the jobs of a namespace (or all), as vcctl prints them. */
@Command(
        name = "list",
        description =
                "List jobs: Name Creation Phase JobType Replicas Min Pending Running Succeeded Failed Unknown RetryCount.")
final class ListVerb extends ApiVerb {

    @Mixin
    Namespaces namespaces;

    @Option(
            names = {"-q", "--queue"},
            description = "Only the jobs of this queue.")
    String queue;

    @Option(
            names = {"-p", "--phase"},
            description = "Only the jobs in this phase.")
    String phase;

    @Option(
            names = {"-o", "--output"},
            description = "json or yaml instead of the table.")
    Output.Format format;

    @Override
    protected int run(LaharApi api) throws IOException, InterruptedException {
        LaharApi.Answer answer = api.get("/api/v1/jobs" + query());
        if (!answer.ok()) {
            return Output.error(err(), "list jobs", answer);
        }
        JsonNode rows = Output.parse(answer.body());
        out().print(format != null ? Output.render(rows, format) : JobTable.format(rows, namespaces.only() == null));
        return 0;
    }

    String query() {
        StringBuilder q = new StringBuilder();
        if (namespaces.only() != null) {
            q.append("&namespace=").append(LaharApi.enc(namespaces.only()));
        }
        if (queue != null) {
            q.append("&queue=").append(LaharApi.enc(queue));
        }
        if (phase != null) {
            q.append("&phase=").append(LaharApi.enc(phase));
        }
        return q.isEmpty() ? "" : "?" + q.substring(1);
    }
}
