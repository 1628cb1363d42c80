package io.lahar.cli.priorityclass;

import io.lahar.cli.CompactedTopics;
import io.lahar.cli.job.JobTable;
import io.lahar.cli.job.Output;
import io.lahar.core.api.Manifests;
import io.lahar.core.api.PriorityClass;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code lahar priorityclass list}: every class, as {@code kubectl get priorityclass} shows them, or as documents. */
@Command(
        name = "list",
        mixinStandardHelpOptions = true,
        description = "List the PriorityClasses on lahar.priority-classes.")
final class ListVerb extends PriorityClassVerb {

    @Option(
            names = {"-o", "--output"},
            description = "Print the classes as documents: json or yaml.")
    Output.Format format;

    @Override
    protected int run(CompactedTopics topics) {
        Collection<PriorityClass> classes = classes(topics).values();
        if (format != null) {
            out().print(Output.render(Manifests.toTree(new Listing(List.copyOf(classes))), format));
            return 0;
        }
        if (classes.isEmpty()) {
            out().println("No resources found");
            return 0;
        }
        List<List<String>> table = new ArrayList<>();
        table.add(List.of("NAME", "VALUE", "GLOBAL-DEFAULT", "DESCRIPTION"));
        for (PriorityClass pc : classes) {
            table.add(List.of(
                    pc.name(),
                    Integer.toString(pc.value()),
                    Boolean.toString(Boolean.TRUE.equals(pc.globalDefault())),
                    pc.description() == null ? "" : pc.description()));
        }
        out().print(JobTable.render(table));
        return 0;
    }

    /** Kubernetes' list form. */
    record Listing(String apiVersion, String kind, List<PriorityClass> items) {
        Listing(List<PriorityClass> items) {
            this("v1", "List", items);
        }
    }
}
