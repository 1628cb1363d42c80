package io.lahar.cli.job;

import io.lahar.cli.Results;
import java.io.IOException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The verbs that send one command to a job and wait for its answer: suspend (AbortJob), resume
 * (ResumeJob), delete — as vcctl's job suspend/resume/delete.
 */
abstract class ActVerb extends ApiVerb {

    @Mixin
    ObjectName object;

    @Option(
            names = {"-m", "--message"},
            description = "Why, for the transition log.")
    String message;

    /** The action's name in the API, or null for delete. */
    abstract String action();

    /** What the verb did, for {@link Results#line}. */
    abstract String done();

    @Override
    protected int run(LaharApi api) throws IOException, InterruptedException {
        String name = object.name;
        String namespace = object.namespace;
        String job = "/api/v1/jobs/" + LaharApi.enc(namespace) + "/" + LaharApi.enc(name);
        String query = message == null ? "" : "?message=" + LaharApi.enc(message);
        LaharApi.Answer answer = action() == null
                ? api.delete(job + query)
                : api.post(job + "/actions/" + action() + query, "", "text/plain");
        if (!answer.ok()) {
            return Output.error(
                    err(), (action() == null ? "delete" : action()) + " job " + namespace + "/" + name, answer);
        }
        out().println(Results.line(done(), "Job", namespace + "/" + name));
        return 0;
    }

    @Command(
            name = "suspend",
            description = "Suspend (abort) a job: AbortJob; its pods are deleted, resume brings it back.")
    static final class Suspend extends ActVerb {
        String action() {
            return "AbortJob";
        }

        String done() {
            return "Suspended";
        }
    }

    @Command(name = "resume", description = "Resume an aborted job: ResumeJob.")
    static final class Resume extends ActVerb {
        String action() {
            return "ResumeJob";
        }

        String done() {
            return "Resumed";
        }
    }

    @Command(name = "delete", description = "Delete a job with its pods and pod group.")
    static final class Delete extends ActVerb {
        String action() {
            return null;
        }

        String done() {
            return "Deleted";
        }
    }
}
