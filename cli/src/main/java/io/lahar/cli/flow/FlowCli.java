package io.lahar.cli.flow;

import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code lahar flow}: vcctl's jobflow verbs over the streams-app REST API (same --server/--token
 * and exit codes as {@code lahar job}: 0 done, 1 rejected/not found/already exists, 2 bad input,
 * 3 server unreachable or failing).
 */
@Command(
        name = "flow",
        mixinStandardHelpOptions = true,
        description = "Create, list, view and delete JobFlows through the REST API (like vcctl jobflow).",
        subcommands = {
            FlowCli.Create.class,
            FlowCli.List.class,
            FlowCli.View.class,
            FlowCli.Delete.class,
            CommandLine.HelpCommand.class
        })
public final class FlowCli implements Runnable {

    static final Resource RESOURCE = new Resource("JobFlow", "jobflows", FlowTable::format, FlowDescription::describe);

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(
                spec.commandLine(), "a flow verb is required: create, list, view, delete");
    }

    @Command(
            name = "create",
            mixinStandardHelpOptions = true,
            description =
                    "Create JobFlows from a file: one request per document; a JobFlow can not be updated (409 when it exists).")
    static final class Create extends CreateVerb {
        Create() {
            super(RESOURCE);
        }
    }

    @Command(
            name = "list",
            mixinStandardHelpOptions = true,
            description = "List JobFlows: Name Namespace Phase Jobs Pending Running Completed Failed Age.")
    static final class List extends ListVerb {
        @Option(
                names = {"-p", "--phase"},
                description = "Only the flows in this phase (Pending, Running, Succeed, Terminating, Failed).")
        String phase;

        List() {
            super(RESOURCE);
        }

        @Override
        protected Map<String, String> filters() {
            return phase == null ? Map.of() : Map.of("phase", phase);
        }
    }

    @Command(
            name = "view",
            mixinStandardHelpOptions = true,
            description =
                    "Show one JobFlow: its jobs in order with their state, and its conditions; -o json|yaml the whole object.")
    static final class View extends ViewVerb {
        View() {
            super(RESOURCE);
        }
    }

    @Command(name = "delete", mixinStandardHelpOptions = true, description = "Delete a JobFlow.")
    static final class Delete extends DeleteVerb {
        Delete() {
            super(RESOURCE);
        }
    }
}
