package io.lahar.cli.jobtemplate;

import io.lahar.cli.flow.CreateVerb;
import io.lahar.cli.flow.DeleteVerb;
import io.lahar.cli.flow.ListVerb;
import io.lahar.cli.flow.Resource;
import io.lahar.cli.flow.ViewVerb;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code lahar jobtemplate}: vcctl's jobtemplate verbs over the streams-app REST API (same
 * --server/--token and exit codes as {@code lahar job}).
 */
@Command(
        name = "jobtemplate",
        mixinStandardHelpOptions = true,
        description = "Create, list, view and delete JobTemplates through the REST API (like vcctl jobtemplate).",
        subcommands = {
            TemplateCli.Create.class,
            TemplateCli.List.class,
            TemplateCli.View.class,
            TemplateCli.Delete.class,
            CommandLine.HelpCommand.class
        })
public final class TemplateCli implements Runnable {

    static final Resource RESOURCE =
            new Resource("JobTemplate", "jobtemplates", TemplateTable::format, TemplateDescription::describe);

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(
                spec.commandLine(), "a jobtemplate verb is required: create, list, view, delete");
    }

    @Command(
            name = "create",
            mixinStandardHelpOptions = true,
            description =
                    "Create or replace JobTemplates from a file: one request per document (a new version affects only jobs not yet created).")
    static final class Create extends CreateVerb {
        Create() {
            super(RESOURCE);
        }
    }

    @Command(
            name = "list",
            mixinStandardHelpOptions = true,
            description = "List JobTemplates: Name Namespace Queue Tasks Replicas Min Age.")
    static final class List extends ListVerb {
        List() {
            super(RESOURCE);
        }
    }

    @Command(
            name = "view",
            mixinStandardHelpOptions = true,
            description = "Show one JobTemplate: queue, minAvailable and tasks; -o json|yaml the whole object.")
    static final class View extends ViewVerb {
        View() {
            super(RESOURCE);
        }
    }

    @Command(
            name = "delete",
            mixinStandardHelpOptions = true,
            description = "Delete a JobTemplate; refused (exit 1) while an unfinished JobFlow uses it.")
    static final class Delete extends DeleteVerb {
        Delete() {
            super(RESOURCE);
        }
    }
}
