package io.lahar.cli.cronjob;

import io.lahar.cli.Results;
import io.lahar.cli.flow.CreateVerb;
import io.lahar.cli.flow.DeleteVerb;
import io.lahar.cli.flow.ListVerb;
import io.lahar.cli.flow.Resource;
import io.lahar.cli.flow.ViewVerb;
import io.lahar.cli.job.ApiVerb;
import io.lahar.cli.job.LaharApi;
import io.lahar.cli.job.Output;
import java.io.IOException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code lahar cronjob}: Volcano's CronJobs over the streams-app REST API, with the verbs of
 * {@code lahar flow} and kubectl's suspend and resume (same --server/--token and exit codes as
 * {@code lahar job}: 0 done, 1 rejected/not found, 2 bad input, 3 server unreachable or failing).
 */
@Command(
        name = "cronjob",
        mixinStandardHelpOptions = true,
        description = "Create, list, view, suspend, resume and delete Volcano CronJobs through the REST API.",
        subcommands = {
            CronJobCli.Create.class,
            CronJobCli.List.class,
            CronJobCli.View.class,
            CronJobCli.Delete.class,
            CronJobCli.Suspend.class,
            CronJobCli.Resume.class,
            CommandLine.HelpCommand.class
        })
public final class CronJobCli implements Runnable {

    static final Resource RESOURCE =
            new Resource("CronJob", "cronjobs", CronJobTable::format, CronJobDescription::describe);

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(
                spec.commandLine(), "a cronjob verb is required: create, list, view, suspend, resume, delete");
    }

    @Command(
            name = "create",
            mixinStandardHelpOptions = true,
            description = "Create CronJobs from a file, or update the ones of those names: one request per document.")
    static final class Create extends CreateVerb {
        Create() {
            super(RESOURCE);
        }
    }

    @Command(
            name = "list",
            mixinStandardHelpOptions = true,
            description =
                    "List CronJobs: Name Namespace Schedule Timezone Suspend Active Last-Schedule Next-Schedule Age.")
    static final class List extends ListVerb {
        List() {
            super(RESOURCE);
        }
    }

    @Command(
            name = "view",
            mixinStandardHelpOptions = true,
            description =
                    "Show one CronJob: its schedule and policies, its jobs with their phases, its latest events; -o json|yaml the whole object.")
    static final class View extends ViewVerb {
        View() {
            super(RESOURCE);
        }
    }

    @Command(
            name = "delete",
            mixinStandardHelpOptions = true,
            description = "Delete a CronJob and the jobs it created.")
    static final class Delete extends DeleteVerb {
        Delete() {
            super(RESOURCE);
        }
    }

    /** {@code suspend NAME} and {@code resume NAME}: one POST that sets {@code spec.suspend}. */
    abstract static class SuspendVerb extends ApiVerb {

        @Parameters(index = "0", paramLabel = "NAME", description = "The CronJob's name.")
        String name;

        @Option(
                names = {"-n", "--namespace"},
                defaultValue = "default",
                description = "Namespace (default: ${DEFAULT-VALUE}).")
        String namespace;

        abstract String verb();

        abstract String done();

        @Override
        protected int run(LaharApi api) throws IOException, InterruptedException {
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
