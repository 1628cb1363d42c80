package io.lahar.cli.cronjob;

import io.lahar.cli.Results;
import io.lahar.cli.job.ApiVerb;
import io.lahar.cli.job.LaharApi;
import io.lahar.cli.job.ObjectName;
import io.lahar.cli.job.Output;
import io.lahar.cli.resource.Resource;
import io.lahar.cli.resource.ResourceCli;
import java.io.IOException;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code lahar cronjob}: Volcano's CronJobs over the streams-app REST API, with the verbs of
 * {@code lahar flow} and kubectl's suspend and resume (same --server/--token and exit codes as
 * {@code lahar job}: 0 done, 1 rejected/not found, 2 bad input, 3 server unreachable or failing).
 */
public final class CronJobCli {

    static final Resource RESOURCE = new Resource(
            "cronjob",
            "CronJob",
            "cronjobs",
            CronJobTable::format,
            CronJobDescription::describe,
            new Resource.Help(
                    "Create, list, view, suspend, resume and delete Volcano CronJobs through the REST API.",
                    "Create CronJobs from a file, or update the ones of those names: one request per document.",
                    "List CronJobs: Name Namespace Schedule Timezone Suspend Active Last-Schedule Next-Schedule Age.",
                    "Show one CronJob: its schedule and policies, its jobs with their phases, its latest events; -o json|yaml the whole object.",
                    "Delete a CronJob and the jobs it created."),
            List.of());

    private CronJobCli() {}

    /** The {@code cronjob} command. */
    public static CommandLine command() {
        return ResourceCli.of(RESOURCE, List.of(new Suspend(), new Resume()));
    }

    /** {@code suspend NAME} and {@code resume NAME}: one POST that sets {@code spec.suspend}. */
    abstract static class SuspendVerb extends ApiVerb {

        @Mixin
        ObjectName object;

        abstract String verb();

        abstract String done();

        @Override
        protected int run(LaharApi api) throws IOException, InterruptedException {
            String name = object.name;
            String namespace = object.namespace;
            LaharApi.Answer answer = api.post(RESOURCE.item(namespace, name) + "/" + verb(), "", "text/plain");
            if (!answer.ok()) {
                return Output.error(err(), verb() + " CronJob " + namespace + "/" + name, answer);
            }
            out().println(Results.line(done(), "CronJob", namespace + "/" + name));
            return 0;
        }
    }

    @Command(
            name = "suspend",
            mixinStandardHelpOptions = true,
            description = "Suspend a CronJob: no new runs; the active jobs go on.")
    static final class Suspend extends SuspendVerb {
        String verb() {
            return "suspend";
        }

        String done() {
            return "Suspended";
        }
    }

    @Command(
            name = "resume",
            mixinStandardHelpOptions = true,
            description =
                    "Resume a suspended CronJob: the most recent missed run starts (within startingDeadlineSeconds).")
    static final class Resume extends SuspendVerb {
        String verb() {
            return "resume";
        }

        String done() {
            return "Resumed";
        }
    }
}
