package io.lahar.cli.flow;

import io.lahar.cli.resource.Resource;
import io.lahar.cli.resource.ResourceCli;
import java.util.List;
import picocli.CommandLine;

/**
 * {@code lahar flow}: vcctl's jobflow verbs over the streams-app REST API (same --server/--token
 * and exit codes as {@code lahar job}: 0 done, 1 rejected/not found/already exists, 2 bad input,
 * 3 server unreachable or failing).
 */
public final class FlowCli {

    static final Resource RESOURCE = new Resource(
            "flow",
            "JobFlow",
            "jobflows",
            FlowTable::format,
            FlowDescription::describe,
            new Resource.Help(
                    "Create, list, view and delete JobFlows through the REST API (like vcctl jobflow).",
                    "Create JobFlows from a file: one request per document; a JobFlow can not be updated (409 when it exists).",
                    "List JobFlows: Name Namespace Phase Jobs Pending Running Completed Failed Age.",
                    "Show one JobFlow: its jobs in order with their state, and its conditions; -o json|yaml the whole object.",
                    "Delete a JobFlow."),
            List.of(new Resource.Filter(
                    "phase", 'p', "Only the flows in this phase (Pending, Running, Succeed, Terminating, Failed).")));

    private FlowCli() {}

    /** The {@code flow} command. */
    public static CommandLine command() {
        return ResourceCli.of(RESOURCE, List.of());
    }
}
