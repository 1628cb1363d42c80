package io.lahar.cli.queue;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code lahar queue}: vcctl's queue verbs over the {@code lahar.queues} topic. Writers run
 * Volcano's queue admission against the queues read to the end of the topic first, so a
 * rejected change never reaches the scheduler or the job admission that read the same topic.
 */
@Command(
        name = "queue",
        mixinStandardHelpOptions = true,
        description = "Create, list, get, delete, open and close queues (like vcctl queue).",
        subcommands = {CreateVerb.class, ListVerb.class, GetVerb.class, DeleteVerb.class, OperateVerb.class})
public final class QueueCli implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a subcommand is required");
    }
}
