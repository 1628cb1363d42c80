package io.lahar.cli.jobtemplate;

import io.lahar.cli.resource.Resource;
import io.lahar.cli.resource.ResourceCli;
import java.util.List;
import picocli.CommandLine;

/**
 * {@code lahar jobtemplate}: vcctl's jobtemplate verbs over the streams-app REST API (same
 * --server/--token and exit codes as {@code lahar job}).
 */
public final class TemplateCli {

    static final Resource RESOURCE = new Resource(
            "jobtemplate",
            "JobTemplate",
            "jobtemplates",
            TemplateTable::format,
            TemplateDescription::describe,
            new Resource.Help(
                    "Create, list, view and delete JobTemplates through the REST API (like vcctl jobtemplate).",
                    "Create or replace JobTemplates from a file: one request per document (a new version affects only jobs not yet created).",
                    "List JobTemplates: Name Namespace Queue Tasks Replicas Min Age.",
                    "Show one JobTemplate: queue, minAvailable and tasks; -o json|yaml the whole object.",
                    "Delete a JobTemplate; refused (exit 1) while an unfinished JobFlow uses it."),
            List.of());

    private TemplateCli() {}

    /** The {@code jobtemplate} command. */
    public static CommandLine command() {
        return ResourceCli.of(RESOURCE, List.of());
    }
}
