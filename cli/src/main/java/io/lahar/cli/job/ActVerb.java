package io.lahar.cli.job;

import java.io.IOException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The verbs that send one command to a job and wait for its answer: suspend (AbortJob), resume
 * (ResumeJob), delete — as vcctl's job suspend/resume/delete.
 */
abstract class ActVerb extends ObjectVerb {

    @Option(
            names = {"-m", "--message"},
            description = "Why, for the transition log.")
    String message;

    /** The action's name in the API, or null for delete. */
    private final String action;

    /** What the verb did, for {@link io.lahar.cli.Results#line}. */
    private final String done;

    ActVerb(String action, String done) {
        this.action = action;
        this.done = done;
    }

    @Override
    protected int run(LaharApi api) throws IOException, InterruptedException {
        String job = object.in(JobCli.JOBS);
        String query = message == null ? "" : "?message=" + LaharApi.enc(message);
        LaharApi.Answer answer = action == null
                ? api.delete(job + query)
                : api.post(job + "/actions/" + action + query, "", "text/plain");
        return report(answer, (action == null ? "delete" : action) + " job", done, "Job");
    }

    @Command(
            name = "suspend",
            description = "Suspend (abort) a job: AbortJob; its pods are deleted, resume brings it back.")
    static final class Suspend extends ActVerb {
        Suspend() {
            super("AbortJob", "Suspended");
        }
    }

    @Command(name = "resume", description = "Resume an aborted job: ResumeJob.")
    static final class Resume extends ActVerb {
        Resume() {
            super("ResumeJob", "Resumed");
        }
    }

    @Command(name = "delete", description = "Delete a job with its pods and pod group.")
    static final class Delete extends ActVerb {
        Delete() {
            super(null, "Deleted");
        }
    }
}
