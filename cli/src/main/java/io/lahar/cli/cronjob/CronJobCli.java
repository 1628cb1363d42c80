package io.lahar.cli.cronjob;

import io.lahar.cli.job.LaharApi;
import io.lahar.cli.job.ObjectVerb;
import io.lahar.cli.resource.Resource;
import io.lahar.cli.resource.ResourceCli;
import java.io.IOException;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;

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
    abstract static class SuspendVerb extends ObjectVerb {

        /** The action's path segment, also the verb's name in an error. */
        private final String verb;

        /** What the verb did, for {@link io.lahar.cli.Results#line}. */
        private final String done;

        SuspendVerb(String verb, String done) {
            this.verb = verb;
            this.done = done;
        }

        @Override
        protected int run(LaharApi api) throws IOException, InterruptedException {
            LaharApi.Answer answer = api.post(object.in(RESOURCE.collection()) + "/" + verb, "", "text/plain");
            return report(answer, verb + " CronJob", done, "CronJob");
        }
    }

    @Command(
            name = "suspend",
            mixinStandardHelpOptions = true,
            description = "Suspend a CronJob: no new runs; the active jobs go on.")
    static final class Suspend extends SuspendVerb {
        Suspend() {
            super("suspend", "Suspended");
        }
    }

    @Command(
            name = "resume",
            mixinStandardHelpOptions = true,
            description =
                    "Resume a suspended CronJob: the most recent missed run starts (within startingDeadlineSeconds).")
    static final class Resume extends SuspendVerb {
        Resume() {
            super("resume", "Resumed");
        }
    }
}
