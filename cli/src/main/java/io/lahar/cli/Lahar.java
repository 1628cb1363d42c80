package io.lahar.cli;

import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code lahar} command. Each subcommand is its own class; add new ones in {@link #commandLine()}. */
@Command(
        name = "lahar",
        mixinStandardHelpOptions = true,
        version = "lahar 0.1.0",
        description = "Lahar: Volcano's batch semantics on Kafka.")
public final class Lahar implements Runnable {

    /** Exit code of a rejected manifest. */
    public static final int EXIT_REJECTED = 1;
    /** Exit code of unreadable input, an unknown kind, or a usage error. */
    public static final int EXIT_INPUT = 2;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a subcommand is required");
    }

    /**
     * The whole command tree. The REST kinds' commands (cronjob, flow, jobtemplate) are built from
     * their resource, so they are added here rather than declared in the annotation.
     */
    public static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new Lahar());
        cli.addSubcommand(new CommandLine(AdmitCommand.class));
        cli.addSubcommand(new CommandLine(PlanCommand.class));
        cli.addSubcommand(new CommandLine(io.lahar.cli.priorityclass.PriorityClassCli.class));
        cli.addSubcommand(io.lahar.cli.cronjob.CronJobCli.command());
        cli.addSubcommand(io.lahar.cli.flow.FlowCli.command());
        cli.addSubcommand(new CommandLine(io.lahar.cli.job.JobCli.class));
        cli.addSubcommand(io.lahar.cli.jobtemplate.TemplateCli.command());
        cli.addSubcommand(new CommandLine(io.lahar.cli.queue.QueueCli.class));
        cli.addSubcommand(new CommandLine(ReplayCommand.class));
        cli.addSubcommand(new CommandLine(SimulateCommand.class));
        cli.addSubcommand(new CommandLine(SubmitCommand.class));
        cli.addSubcommand(new CommandLine(WatchCommand.class));
        cli.addSubcommand(new CommandLine.HelpCommand());
        return cli;
    }

    /** Runs the CLI with the given streams and returns the exit code (for tests and embedding). */
    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cli = commandLine();
        cli.setOut(out);
        cli.setErr(err);
        cli.setExitCodeExceptionMapper(e -> EXIT_INPUT);
        cli.setParameterExceptionHandler((ex, a) -> {
            ex.getCommandLine().getErr().println("error: " + ex.getMessage());
            ex.getCommandLine().usage(ex.getCommandLine().getErr());
            return EXIT_INPUT;
        });
        int code = cli.execute(args);
        out.flush();
        err.flush();
        return code;
    }

    /**
     * Apicurio's registry client warns, once per process, that it uses its own shared Vert.x
     * instance: right for a command that exits when done, and noise in its output. Held here so
     * the level is not lost with a collected logger.
     */
    private static final java.util.logging.Logger SHARED_VERTX_NOTICE =
            java.util.logging.Logger.getLogger("io.apicurio.registry.client.common.DefaultVertxInstance");

    public static void main(String[] args) {
        SHARED_VERTX_NOTICE.setLevel(java.util.logging.Level.SEVERE);
        PrintWriter out = new PrintWriter(System.out, true, java.nio.charset.StandardCharsets.UTF_8);
        PrintWriter err = new PrintWriter(System.err, true, java.nio.charset.StandardCharsets.UTF_8);
        System.exit(run(args, out, err));
    }
}
