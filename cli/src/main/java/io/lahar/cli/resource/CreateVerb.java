package io.lahar.cli.resource;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lahar.cli.Lahar;
import io.lahar.cli.Results;
import io.lahar.cli.job.ApiVerb;
import io.lahar.cli.job.LaharApi;
import io.lahar.cli.job.Output;
import io.lahar.core.api.ManifestException;
import io.lahar.core.api.Manifests;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code create -f FILE}: every document of the file (YAML with {@code ---} separators, a JSON
 * object or array, or a {@code kind: List}) is one POST, in file order, as {@code vcctl jobflow
 * create} does. A document of another kind, or of another namespace than an explicit {@code -n},
 * is reported and not sent; the others still go. The exit code is the worst outcome among the
 * documents (0 all created, 1 some rejected, 2 some not sent, 3 the server failing).
 */
@Command(name = "create", mixinStandardHelpOptions = true)
final class CreateVerb extends ApiVerb {

    /** What this verb creates. */
    private final Resource resource;

    CreateVerb(Resource resource) {
        this.resource = resource;
    }

    @Option(
            names = {"-f", "--filename"},
            required = true,
            description = "The manifests (YAML, several documents allowed, or JSON).")
    Path file;

    @Option(
            names = {"-n", "--namespace"},
            description = "Namespace of the documents that name none (a document naming another one is not sent).")
    String namespace;

    @Option(
            names = {"-o", "--output"},
            description = "Print the admitted objects: json or yaml.")
    Output.Format format;

    @Override
    protected int run(LaharApi api) throws IOException, InterruptedException {
        List<JsonNode> documents;
        try {
            documents = Manifests.readTrees(Files.readString(file));
        } catch (IOException e) {
            err().println("error: cannot read " + file + ": " + e.getMessage());
            return Lahar.EXIT_INPUT;
        } catch (ManifestException e) {
            err().println("error: " + file + ": " + e.getMessage());
            return Lahar.EXIT_INPUT;
        }
        if (documents.isEmpty()) {
            err().println("error: " + file + " holds no " + resource.kind());
            return Lahar.EXIT_INPUT;
        }
        int worst = 0;
        boolean printed = false;
        for (int i = 0; i < documents.size(); i++) {
            String where = documents.size() > 1 ? file + " document " + (i + 1) : file.toString();
            JsonNode doc = documents.get(i);
            String problem = problem(doc);
            if (problem != null) {
                err().println("error: " + where + ": " + problem + "; not sent");
                worst = Math.max(worst, Lahar.EXIT_INPUT);
                continue;
            }
            ObjectNode manifest = ((ObjectNode) doc).deepCopy();
            if (namespace != null && !manifest.path("metadata").hasNonNull("namespace")) {
                JsonNode metadata = manifest.path("metadata");
                (metadata.isObject() ? (ObjectNode) metadata : manifest.putObject("metadata"))
                        .put("namespace", namespace);
            }
            LaharApi.Answer answer = api.post(resource.collection(), json(manifest), "application/json");
            if (!answer.ok()) {
                worst = Math.max(
                        worst, Output.error(err(), "create " + resource.kind() + " " + label(manifest), answer));
                continue;
            }
            JsonNode created = Output.parse(answer.body());
            if (format == null) {
                out().println(Results.line(
                        "Created",
                        resource.kind(),
                        label(created.path("metadata").isObject() ? created : manifest)));
            } else {
                if (printed && format == Output.Format.yaml) {
                    out().println("---");
                }
                out().print(Output.render(created, format));
                printed = true;
            }
        }
        return worst;
    }

    /** Why a document is not sent, or null: it must be a mapping of this kind, in the namespace asked for. */
    private String problem(JsonNode doc) {
        if (!doc.isObject()) {
            return "a manifest must be a mapping, found "
                    + doc.getNodeType().name().toLowerCase();
        }
        String kind = doc.path("kind").asText("");
        if (!kind.equals(resource.kind())) {
            return (kind.isEmpty() ? "no kind" : "kind " + kind) + " (" + label(doc) + ") is not a " + resource.kind();
        }
        String own = doc.path("metadata").path("namespace").asText("");
        if (namespace != null && !own.isEmpty() && !own.equals(namespace)) {
            return "metadata.namespace: " + own + " does not match the namespace " + namespace + " given with -n";
        }
        return null;
    }

    /** NS/NAME as the server will see it: without a namespace the server's default, {@code default}. */
    private static String label(JsonNode doc) {
        JsonNode metadata = doc.path("metadata");
        String ns = metadata.path("namespace").asText("");
        String name = metadata.path("name").asText("");
        return (ns.isEmpty() ? "default" : ns) + "/" + (name.isEmpty() ? "<no name>" : name);
    }

    private static String json(JsonNode manifest) {
        try {
            return Manifests.jsonMapper().writeValueAsString(manifest);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write a parsed manifest back as JSON", e);
        }
    }
}
