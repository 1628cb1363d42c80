package io.lahar.cli.priorityclass;

import io.lahar.cli.CompactedTopics;
import io.lahar.cli.InputFile;
import io.lahar.cli.Lahar;
import io.lahar.cli.Results;
import io.lahar.core.admission.AdmissionContext;
import io.lahar.core.admission.AdmissionResult;
import io.lahar.core.admission.PriorityClassAdmission;
import io.lahar.core.admission.Violation;
import io.lahar.core.api.Manifest;
import io.lahar.core.api.ManifestException;
import io.lahar.core.api.Manifests;
import io.lahar.core.api.PriorityClass;
import io.lahar.schema.codec.PriorityClassCodec;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code lahar priorityclass apply -f FILE}: each PriorityClass of the file created, or updated when
 * one of its name exists (as {@code kubectl apply}), in file order, each seeing those before it.
 * Held to the API server's rules ({@link PriorityClassAdmission}: a value at most 1e9, the
 * {@code system-} names reserved, value and preemptionPolicy immutable, one global default). A class
 * whose {@code preemptionPolicy} is Never gives its pods no victims in the scheduler's preempt and
 * reclaim, as Volcano's. A document of another kind is refused; the others still go.
 */
@Command(
        name = "apply",
        mixinStandardHelpOptions = true,
        description = "Create or update PriorityClasses from manifests (YAML, several documents allowed, or JSON).")
final class ApplyVerb extends PriorityClassVerb {

    @Option(
            names = {"-f", "--filename"},
            required = true,
            description = "The manifests; - reads stdin.")
    Path file;

    @Override
    protected int run(CompactedTopics topics) {
        List<Manifest> documents;
        try {
            documents = Manifests.readAll(InputFile.read(file));
        } catch (IOException | ManifestException e) {
            err().println("error: " + file + ": " + e.getMessage());
            return Lahar.EXIT_INPUT;
        }
        Map<String, PriorityClass> stored = classes(topics);
        AdmissionContext ctx = AdmissionContext.empty();
        for (PriorityClass pc : stored.values()) ctx = ctx.with(pc);
        int worst = 0;
        for (Manifest m : documents) {
            if (!(m instanceof PriorityClass pc)) {
                err().println("error: kind: " + m.kind() + " " + m.name() + " is not a PriorityClass; not applied");
                worst = Math.max(worst, Lahar.EXIT_INPUT);
                continue;
            }
            PriorityClass old = stored.get(pc.name());
            AdmissionResult<PriorityClass> result =
                    old == null ? PriorityClassAdmission.create(pc, ctx) : PriorityClassAdmission.update(old, pc, ctx);
            List<Violation> violations = result.violations();
            if (!violations.isEmpty()) {
                violations.forEach(v -> err().println("error: " + v + " [PriorityClass " + pc.name() + "]"));
                worst = Math.max(worst, Lahar.EXIT_REJECTED);
                continue;
            }
            if (old != null
                    && PriorityClassCodec.toRecord(old, Instant.EPOCH)
                            .equals(PriorityClassCodec.toRecord(pc, Instant.EPOCH))) {
                out().println(Results.line("Unchanged", "PriorityClass", pc.name()));
                continue;
            }
            write(topics, pc.name(), pc);
            stored.put(pc.name(), pc);
            ctx = ctx.with(pc);
            out().println(Results.line(old == null ? "Created" : "Configured", "PriorityClass", pc.name()));
        }
        return worst;
    }
}
