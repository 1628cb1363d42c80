package io.lahar.cli.job;

import com.fasterxml.jackson.databind.JsonNode;
import io.lahar.cli.Lahar;
import io.lahar.cli.Results;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code lahar job run -f FILE}: submit one Job through the API and wait for admission's answer. */
@Command(name = "run", description = "Submit a Volcano Job (YAML or JSON) and wait for admission's answer.")
final class RunVerb extends ApiVerb {

    @Option(
            names = {"-f", "--filename"},
            required = true,
            description = "The Job manifest (YAML or JSON).")
    Path file;

    @Option(
            names = {"-o", "--output"},
            description = "Print the admitted job: json or yaml.")
    Output.Format format;

    @Override
    protected int run(LaharApi api) throws IOException, InterruptedException {
        String manifest;
        try {
            manifest = Files.readString(file);
        } catch (IOException e) {
            err().println("error: cannot read " + file + ": " + e.getMessage());
            return Lahar.EXIT_INPUT;
        }
        String type = manifest.stripLeading().startsWith("{") ? "application/json" : "application/yaml";
        LaharApi.Answer answer = api.post("/api/v1/jobs", manifest, type);
        if (!answer.ok()) {
            return Output.error(err(), "run " + file, answer);
        }
        JsonNode job = Output.parse(answer.body());
        if (format != null) {
            out().print(Output.render(job, format));
        } else {
            out().println(Results.line(
                    "Created",
                    "Job",
                    job.path("metadata").path("namespace").asText("default") + "/"
                            + job.path("metadata").path("name").asText()));
        }
        return 0;
    }
}
