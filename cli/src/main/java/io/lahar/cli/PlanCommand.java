package io.lahar.cli;

import io.lahar.core.scheduling.api.Problem;
import io.lahar.core.scheduling.framework.InvalidConfException;
import io.lahar.core.scheduling.framework.SchedulerConf;
import io.lahar.core.sim.plan.PlanInput;
import io.lahar.core.sim.plan.PlanReport;
import io.lahar.core.sim.plan.PlanWorld;
import io.lahar.core.sim.plan.Planner;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code lahar plan}: what Volcano's scheduler would do with a cluster snapshot, offline. Admits
 * the jobs, makes their pod groups, and runs scheduling sessions (each applied to the snapshot
 * before the next) until nothing changes, or exactly {@code --sessions N}.
 */
@Command(
        name = "plan",
        mixinStandardHelpOptions = true,
        description = {
            "What would Volcano's scheduler do with this cluster? SNAPSHOT is multi-document YAML (or JSON) of",
            "v1 Nodes, Queues, PriorityClasses, Volcano Jobs, and optionally PodGroups (status.phase) and v1 Pods",
            "already bound to nodes (other kinds are ignored with a warning). Jobs are admitted and defaulted;",
            "a rejected job is listed under podGroups",
            "with its admission errors. Sessions run with the scheduler configuration (Volcano's default",
            "without --conf) until one changes nothing, or exactly --sessions N.",
            "Output (YAML on stdout): sessions, converged, bindings [{namespace, pod, node, action}],",
            "podGroups [{namespace, name, phase, reason, message}], queues [{name, deserved, allocated}],",
            "evictions [{namespace, pod, node, action, reason, session}].",
            "Exit 0; unreadable input or configuration: 2, every problem on stderr with its path."
        })
public final class PlanCommand extends Verb {

    @Option(
            names = {"-f", "--filename"},
            required = true,
            paramLabel = "SNAPSHOT",
            arity = "1",
            description = "A snapshot file (repeatable; '-' reads stdin).")
    List<Path> snapshots = new ArrayList<>();

    @Option(
            names = "--conf",
            paramLabel = "SCHEDULER_CONF.yaml",
            description = "Scheduler configuration (volcano-scheduler.conf: actions, tiers, configurations).")
    Path conf;

    @Option(names = "--sessions", paramLabel = "N", description = "Run exactly N sessions (at least 1).")
    Integer sessions;

    @Option(
            names = "--now",
            paramLabel = "TIME",
            description =
                    "The time the sessions run at, RFC 3339 (the sla plugin's clock; default: the latest creationTimestamp of the input's jobs).")
    String now;

    @Override
    public Integer call() {
        PrintWriter out = out();
        PrintWriter err = err();
        if (sessions != null && sessions < 1) {
            err.println("error: --sessions: must be at least 1, got " + sessions);
            return Lahar.EXIT_INPUT;
        }
        List<String> errors = new ArrayList<>();
        java.time.Instant at = null;
        if (now != null) {
            try {
                at = java.time.Instant.parse(now);
            } catch (java.time.format.DateTimeParseException e) {
                errors.add("--now: not an RFC 3339 time: \"" + now + "\"");
            }
        }
        List<PlanInput.Source> sources = new ArrayList<>();
        for (Path p : snapshots) {
            String text = read(p, errors);
            if (text != null) sources.add(new PlanInput.Source(p.toString(), text));
        }
        SchedulerConf schedulerConf = SchedulerConf.defaults();
        if (conf != null) {
            String text = read(conf, errors);
            if (text != null) {
                try {
                    schedulerConf = SchedulerConf.parse(text);
                } catch (InvalidConfException e) {
                    for (Problem p : e.problems()) errors.add(conf + ": " + p);
                }
            }
        }
        PlanInput input = PlanInput.read(sources);
        List<Problem> problems = new ArrayList<>(input.problems());
        PlanWorld world = PlanWorld.build(input, at, problems);
        problems.forEach(p -> errors.add(p.toString()));
        for (Problem p : input.ignored()) err.println("warning: ignored " + p);
        if (!errors.isEmpty()) {
            errors.forEach(e -> err.println("error: " + e));
            return Lahar.EXIT_INPUT;
        }
        PlanReport report = new Planner(schedulerConf).plan(world, sessions);
        for (Problem p : report.problems()) err.println("warning: skipped " + p);
        if (!report.converged() && sessions == null) {
            err.println("warning: still changing after " + report.sessions() + " sessions; stopped");
        }
        out.print(report.toYaml());
        return 0;
    }

    private static String read(Path p, List<String> errors) {
        try {
            return InputFile.read(p);
        } catch (IOException e) {
            errors.add(p + ": cannot read file: "
                    + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
            return null;
        }
    }
}
