package io.lahar.cli.flow;

import com.fasterxml.jackson.databind.JsonNode;
import io.lahar.cli.job.ApiVerb;
import io.lahar.cli.job.LaharApi;
import io.lahar.cli.job.Output;
import java.io.IOException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/** {@code list}: the rows of a namespace (or all), as a table or with {@code -o} as the server sent them. */
public abstract class ListVerb extends ApiVerb {

    /** What this verb lists. */
    private final Resource resource;

    protected ListVerb(Resource resource) {
        this.resource = resource;
    }

    @Option(
            names = {"-n", "--namespace"},
            defaultValue = "default",
            description = "Namespace (default: ${DEFAULT-VALUE}).")
    String namespace;

    @Option(
            names = {"-A", "--all-namespaces"},
            description = "Every namespace.")
    boolean allNamespaces;

    @Option(
            names = {"-o", "--output"},
            description = "json or yaml instead of the table.")
    Output.Format format;

    /** Filters besides the namespace, name to value; null values are left out. */
    protected Map<String, String> filters() {
        return Map.of();
    }

    @Override
    protected int run(LaharApi api) throws IOException, InterruptedException {
        LaharApi.Answer answer = api.get(resource.collection() + query());
        if (!answer.ok()) {
            return Output.error(err(), "list " + resource.plural(), answer);
        }
        JsonNode rows = Output.parse(answer.body());
        out().print(
                        format != null
                                ? Output.render(rows, format)
                                : resource.table().apply(rows, Instant.now()));
        return 0;
    }

    String query() {
        Map<String, String> params = new LinkedHashMap<>();
        if (!allNamespaces) {
            params.put("namespace", namespace);
        }
        params.putAll(filters());
        StringBuilder q = new StringBuilder();
        params.forEach((k, v) -> {
            if (v != null) {
                q.append(q.isEmpty() ? "?" : "&").append(k).append('=').append(LaharApi.enc(v));
            }
        });
        return q.toString();
    }
}
