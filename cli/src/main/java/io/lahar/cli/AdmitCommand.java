package io.lahar.cli;

import io.lahar.core.admission.Admission;
import io.lahar.core.admission.AdmissionContext;
import io.lahar.core.admission.AdmissionResult;
import io.lahar.core.admission.Operation;
import io.lahar.core.admission.Violation;
import io.lahar.core.api.Manifest;
import io.lahar.core.api.ManifestException;
import io.lahar.core.api.Manifests;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code lahar admit}: Volcano's admission (defaults + validation) offline. Documents are admitted
 * in order, each seeing the ones accepted before it (a queue, then a job submitted to it).
 */
@Command(
        name = "admit",
        mixinStandardHelpOptions = true,
        description = {
            "Validate and default Volcano manifests the way Volcano's admission webhooks do, offline.",
            "Accepted: exit 0, the defaulted objects as YAML on stdout.",
            "Rejected: exit 1, one line per violation on stderr: error: <field path>: <message>.",
            "A field a kind does not have is dropped, with a line on stderr: Warning: unknown field \"<path>\".",
            "Unreadable input or an unknown kind: exit 2."
        })
public final class AdmitCommand extends Verb {

    @Option(
            names = {"-f", "--filename"},
            required = true,
            paramLabel = "FILE",
            description = "Manifests to admit (YAML, several documents allowed, or JSON; '-' reads stdin).")
    List<Path> files = new ArrayList<>();

    @Option(
            names = "--old",
            paramLabel = "FILE",
            description =
                    "The stored objects: a document of -f with the same kind and name is admitted as an UPDATE of it.")
    Path old;

    @Option(
            names = "--existing",
            paramLabel = "FILE",
            description = "Objects that already exist (queues, job templates, flows, jobs). Without queues among"
                    + " them, the queues root and default exist, as in a fresh Volcano install.")
    List<Path> existing = new ArrayList<>();

    @Option(names = "--delete", description = "Admit the deletion of the objects instead of their creation.")
    boolean delete;

    @Option(
            names = {"-o", "--output"},
            paramLabel = "FORMAT",
            defaultValue = "yaml",
            description = "Output format of accepted objects: yaml (default) or json.")
    String output;

    @Override
    public Integer call() {
        PrintWriter out = out();
        PrintWriter err = err();
        if (!output.equals("yaml") && !output.equals("json")) {
            err.println("error: --output must be yaml or json, not \"" + output + "\"");
            return Lahar.EXIT_INPUT;
        }
        List<Manifests.Reading> readings;
        List<Manifest> olds;
        List<Manifest> stored = new ArrayList<>();
        try {
            readings = readAll(files);
            olds = old == null ? List.of() : manifests(readAll(List.of(old)));
            stored.addAll(manifests(readAll(existing)));
        } catch (InputException e) {
            err.println("error: " + e.getMessage());
            return Lahar.EXIT_INPUT;
        }
        List<Manifest> objects = manifests(readings);
        if (objects.isEmpty()) {
            err.println("error: no manifest found in " + files);
            return Lahar.EXIT_INPUT;
        }
        AdmissionContext ctx = AdmissionContext.of(stored);
        for (Manifest o : olds) {
            ctx = ctx.with(o);
        }
        boolean several = objects.size() > 1;
        // As the API server's default field validation (Warn): dropped, and said, whatever the verdict.
        for (Manifests.Reading r : readings) {
            for (String w : r.warnings()) {
                err.println("Warning: " + w
                        + (several ? " [" + r.manifest().kind() + " " + qualified(r.manifest()) + "]" : ""));
            }
        }
        List<Manifest> accepted = new ArrayList<>();
        List<String> errors = new ArrayList<>();
        for (Manifest m : objects) {
            Optional<Manifest> previous = matchOld(m, olds, objects.size());
            Operation op = delete ? Operation.DELETE : previous.isPresent() ? Operation.UPDATE : Operation.CREATE;
            AdmissionResult<Manifest> r = Admission.admit(op, m, previous.orElse(null), ctx);
            if (r.accepted()) {
                accepted.add(r.object());
                ctx = op == Operation.DELETE ? ctx.without(r.object()) : ctx.with(r.object());
            } else {
                for (Violation v : r.violations()) {
                    errors.add("error: " + v + (several ? " [" + m.kind() + " " + qualified(m) + "]" : ""));
                }
            }
        }
        if (!errors.isEmpty()) {
            errors.forEach(err::println);
            return Lahar.EXIT_REJECTED;
        }
        if (output.equals("json")) {
            for (Manifest m : accepted) {
                out.println(Manifests.toJson(m));
            }
        } else {
            out.print(Manifests.toYaml(accepted));
        }
        return 0;
    }

    /** The stored object this document updates: same kind and name, or the only one when both sides have one. */
    private static Optional<Manifest> matchOld(Manifest m, List<Manifest> olds, int newCount) {
        for (Manifest o : olds) {
            if (o.getClass() == m.getClass()
                    && o.name().equals(m.name())
                    && o.namespace().equals(m.namespace())) {
                return Optional.of(o);
            }
        }
        if (olds.size() == 1 && newCount == 1) {
            return Optional.of(olds.get(0));
        }
        return Optional.empty();
    }

    private static String qualified(Manifest m) {
        return switch (m) {
            case io.lahar.core.api.Queue q -> q.name();
            case io.lahar.core.api.PriorityClass p -> p.name();
            default -> m.namespace() + "/" + m.name();
        };
    }

    private static List<Manifest> manifests(List<Manifests.Reading> readings) {
        return readings.stream().map(Manifests.Reading::manifest).toList();
    }

    private List<Manifests.Reading> readAll(List<Path> paths) {
        List<Manifests.Reading> all = new ArrayList<>();
        for (Path p : paths) {
            String text;
            try {
                text = InputFile.read(p);
            } catch (IOException e) {
                throw new InputException(p + ": cannot read file: " + describe(e));
            }
            try {
                all.addAll(Manifests.readAllWithWarnings(text));
            } catch (ManifestException e) {
                throw new InputException(p + ": " + e.getMessage());
            }
        }
        return all;
    }

    private static String describe(IOException e) {
        if (e instanceof java.nio.file.NoSuchFileException) {
            return "no such file";
        }
        if (e instanceof java.nio.file.AccessDeniedException) {
            return "permission denied";
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    private static final class InputException extends RuntimeException {
        InputException(String message) {
            super(message);
        }
    }
}
