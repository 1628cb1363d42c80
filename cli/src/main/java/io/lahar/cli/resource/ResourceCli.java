package io.lahar.cli.resource;

import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The command of one {@link Resource}: create, list, view and delete, then the verbs of the kind's
 * own (a CronJob's suspend and resume), then help. Built from the resource rather than declared per
 * kind, so the kinds' verbs cannot drift apart.
 */
@CommandLine.Command(mixinStandardHelpOptions = true)
public final class ResourceCli implements Runnable {

    @CommandLine.Spec
    CommandSpec spec;

    private ResourceCli() {}

    /**
     * The command line of {@code resource}.
     *
     * @param ownVerbs annotated picocli commands (usually {@code ApiVerb}s) the kind adds
     */
    public static CommandLine of(Resource resource, List<Object> ownVerbs) {
        CommandLine command = new CommandLine(new ResourceCli());
        CommandSpec spec = command.getCommandSpec();
        spec.name(resource.command());
        spec.usageMessage().description(resource.help().command());
        Resource.Help help = resource.help();
        command.addSubcommand(verb(new CreateVerb(resource), help.create()));
        command.addSubcommand(new ListVerb(resource).commandLine(help.list()));
        command.addSubcommand(verb(new ViewVerb(resource), help.view()));
        command.addSubcommand(verb(new DeleteVerb(resource), help.delete()));
        for (Object own : ownVerbs) {
            command.addSubcommand(new CommandLine(own));
        }
        command.addSubcommand(new CommandLine.HelpCommand());
        return command;
    }

    static CommandLine verb(Object verb, String description) {
        CommandLine line = new CommandLine(verb);
        line.getCommandSpec().usageMessage().description(description);
        return line;
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(
                spec.commandLine(), "a " + spec.name() + " verb is required: " + String.join(", ", verbs(spec)));
    }

    private static List<String> verbs(CommandSpec spec) {
        return spec.subcommands().keySet().stream()
                .filter(name -> !name.equals("help"))
                .toList();
    }
}
