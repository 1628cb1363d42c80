package io.lahar.cli.job;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code lahar job}: vcctl's job verbs over the streams-app REST API (--server, default
 * $LAHAR_SERVER or http://127.0.0.1:8081; writes send --token or $LAHAR_TOKEN as a bearer token).
 * Exit codes: 0 done, 1 rejected/not found/unauthorised, 2 bad input, 3 server unreachable or failing.
 */
@Command(
        name = "job",
        description = "Run, list, view, suspend, resume and delete jobs through the REST API (like vcctl job).",
        subcommands = {
            RunVerb.class,
            ListVerb.class,
            ViewVerb.class,
            ActVerb.Suspend.class,
            ActVerb.Resume.class,
            ActVerb.Delete.class,
            CommandLine.HelpCommand.class
        })
public final class JobCli implements Runnable {

    /** The jobs' collection in the REST API. */
    static final String JOBS = "/api/v1/jobs";

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(
                spec.commandLine(), "a job verb is required: run, list, view, suspend, resume, delete");
    }
}
