package io.lahar.cli.priorityclass;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code lahar priorityclass}: Kubernetes' PriorityClasses on {@code lahar.priority-classes}, for a
 * Lahar without Kubernetes (with a cluster, the k8s-bridge publishes the cluster's own). Writers hold
 * a class to the API server's rules against the classes read to the end of the topic first, so a
 * class Kubernetes would refuse never reaches the scheduler.
 */
@Command(
        name = "priorityclass",
        mixinStandardHelpOptions = true,
        description = "Apply, list and delete PriorityClasses (scheduling.k8s.io/v1) on lahar.priority-classes.",
        subcommands = {ApplyVerb.class, ListVerb.class, DeleteVerb.class})
public final class PriorityClassCli implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a subcommand is required");
    }
}
