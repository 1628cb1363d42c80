package io.lahar.cli.job;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
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

    @Mixin
    ListFormat format;

    @Override
    protected int run(LaharApi api) throws IOException, InterruptedException {
        LaharApi.Answer answer = api.get(JobCli.JOBS + query());
        if (!answer.ok()) {
            return Output.error(err(), "list jobs", answer);
        }
        JsonNode rows = Output.parse(answer.body());
        out().print(format.render(rows, r -> JobTable.format(r, namespaces.only() == null)));
        return 0;
    }

    String query() {
        Map<String, String> params = new LinkedHashMap<>();
        params.put("namespace", namespaces.only());
        params.put("queue", queue);
        params.put("phase", phase);
        return LaharApi.query(params);
    }
}
