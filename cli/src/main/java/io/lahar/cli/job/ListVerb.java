package io.lahar.cli.job;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code lahar job list}: the jobs of a namespace (or all), as vcctl prints them. */
@Command(
        name = "list",
        description =
                "List jobs: Name Creation Phase JobType Replicas Min Pending Running Succeeded Failed Unknown RetryCount.")
final class ListVerb extends ApiVerb {

    @Option(
            names = {"-n", "--namespace"},
            defaultValue = "default",
            description = "Namespace (default: ${DEFAULT-VALUE}).")
    String namespace;

    @Option(
            names = {"-A", "--all-namespaces"},
            description = "Jobs of every namespace.")
    boolean allNamespaces;

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
        out().print(format != null ? Output.render(rows, format) : JobTable.format(rows, allNamespaces));
        return 0;
    }

    String query() {
        StringBuilder q = new StringBuilder();
        if (!allNamespaces) {
            q.append("&namespace=").append(LaharApi.enc(namespace));
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
