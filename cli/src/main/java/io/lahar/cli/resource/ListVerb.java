package io.lahar.cli.resource;

import com.fasterxml.jackson.databind.JsonNode;
import io.lahar.cli.job.ApiVerb;
import io.lahar.cli.job.LaharApi;
import io.lahar.cli.job.ListFormat;
import io.lahar.cli.job.Namespaces;
import io.lahar.cli.job.Output;
import java.io.IOException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.OptionSpec;

/** {@code list}: the rows of a namespace (or all), as a table or with {@code -o} as the server sent them. */
@Command(name = "list", mixinStandardHelpOptions = true)
final class ListVerb extends ApiVerb {

    /** What this verb lists. */
    private final Resource resource;

    /** The options of the resource's filters, by query parameter. */
    private final Map<String, OptionSpec> filters = new LinkedHashMap<>();

    ListVerb(Resource resource) {
        this.resource = resource;
    }

    /** This verb's command line, with {@code description} and an option per filter of the resource. */
    CommandLine commandLine(String description) {
        CommandLine line = ResourceCli.verb(this, description);
        for (Resource.Filter f : resource.filters()) {
            OptionSpec option = OptionSpec.builder("-" + f.shortName(), "--" + f.name())
                    .paramLabel("<" + f.name() + ">")
                    .type(String.class)
                    .description(f.description())
                    .build();
            line.getCommandSpec().addOption(option);
            filters.put(f.name(), option);
        }
        return line;
    }

    @Mixin
    Namespaces namespaces;

    @Mixin
    ListFormat format;

    @Override
    protected int run(LaharApi api) throws IOException, InterruptedException {
        LaharApi.Answer answer = api.get(resource.collection() + query());
        if (!answer.ok()) {
            return Output.error(err(), "list " + resource.plural(), answer);
        }
        JsonNode rows = Output.parse(answer.body());
        out().print(format.render(rows, r -> resource.table().apply(r, Instant.now())));
        return 0;
    }

    String query() {
        Map<String, String> params = new LinkedHashMap<>();
        params.put("namespace", namespaces.only());
        filters.forEach((name, option) -> params.put(name, option.getValue()));
        return LaharApi.query(params);
    }
}
