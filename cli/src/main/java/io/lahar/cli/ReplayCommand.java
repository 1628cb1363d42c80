package io.lahar.cli;

import io.lahar.cli.replay.InputLog;
import io.lahar.cli.replay.JobReplay;
import io.lahar.cli.replay.QueueHistory;
import io.lahar.cli.replay.ReplayInput;
import io.lahar.core.job.Transition;
import io.lahar.schema.JobTransition;
import io.lahar.schema.Topics;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code lahar replay}: reads one job's inputs back from the log, re-runs the core on them in the
 * order the streams-app processed them, and prints each input with the transitions it caused —
 * the same transitions the streams-app wrote to {@code lahar.job-transitions}.
 */
@Command(
        name = "replay",
        description =
                "Re-run the core over one job's input records and print each input with the transitions it caused.")
public final class ReplayCommand extends Verb {

    /** The streams-app's default {@code lahar.clock.max-step}. */
    static final long DEFAULT_MAX_CLOCK_STEP = Duration.ofMinutes(1).toMillis();

    @CommandLine.Mixin
    KafkaOptions kafka;

    @Option(names = "--job", required = true, paramLabel = "NS/NAME", description = "The job to replay.")
    String job;

    @Option(
            names = "--until",
            paramLabel = "TIME|OFFSET",
            description = "Stop after inputs with record time <= TIME (ISO-8601, e.g. 2026-01-01T10:00:00Z), "
                    + "or with offset <= OFFSET in their partition.")
    String until;

    @Option(
            names = "--explain",
            description = "Also print the event, the action and the policy behind each transition.")
    boolean explain;

    @Option(
            names = "--max-clock-step",
            defaultValue = "60000",
            paramLabel = "MS",
            description = "The streams-app's lahar.clock.max-step in ms (default ${DEFAULT-VALUE}).")
    long maxClockStep;

    @Option(names = "--all-ticks", description = "Also print clock ticks that fired nothing.")
    boolean allTicks;

    @Option(
            names = "--timeout",
            defaultValue = "30",
            description = "Seconds to read the topics within (default ${DEFAULT-VALUE}).")
    int timeoutSeconds;

    @Override
    public Integer call() {
        String[] parts = job.split("/", -1);
        if (parts.length != 2 || parts[0].isBlank() || parts[1].isBlank()) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "--job: expected NS/NAME, got \"" + job + "\"");
        }
        Predicate<ReplayInput> within = bound(until);
        KafkaOptions.Resolved where = kafka.resolve(spec);
        InputLog.Log log = InputLog.read(where.kafka(), where.serdes(), job, Duration.ofSeconds(timeoutSeconds));
        PrintWriter out = out();
        String key = Topics.jobKey(parts[0], parts[1]);
        if (log.inputs().stream().noneMatch(in -> key.equals(in.key()))) {
            // The clock's ticks of the job's partition are there whether or not the job is.
            spec.commandLine()
                    .getErr()
                    .println("error: no input of job " + job + " in " + String.join(", ", InputLog.TOPICS)
                            + ": no such job (check the namespace and name)");
            return Lahar.EXIT_REJECTED;
        }
        for (JobReplay.Step step : replay(
                parts[0],
                parts[1],
                maxClockStep,
                log.queues(),
                log.inputs().stream().takeWhile(within).toList())) {
            print(out, step, explain, allTicks);
        }
        out.flush();
        return 0;
    }

    /** Every input's step, in order. */
    public static List<JobReplay.Step> replay(
            String namespace, String name, long maxClockStep, QueueHistory queues, List<ReplayInput> inputs) {
        JobReplay replay = new JobReplay(namespace, name, maxClockStep, queues);
        List<JobReplay.Step> steps = new ArrayList<>();
        inputs.forEach(in -> steps.add(replay.step(in)));
        return steps;
    }

    /** The transition records of all steps: what the transitions topic holds for the job. */
    public static List<JobTransition> transitions(List<JobReplay.Step> steps) {
        return steps.stream().flatMap(s -> s.transitions().stream()).toList();
    }

    static void print(PrintWriter out, JobReplay.Step step, boolean explain, boolean allTicks) {
        ReplayInput in = step.input();
        if (!allTicks && step.kind().equals("tick") && step.transitions().isEmpty()) {
            return;
        }
        out.printf(
                "%s %s %s: %s%s%n",
                in.coordinates(),
                Instant.ofEpochMilli(in.timestamp()),
                step.kind(),
                step.summary(),
                step.note() == null ? "" : " (" + step.note() + ")");
        for (int i = 0; i < step.transitions().size(); i++) {
            JobTransition t = step.transitions().get(i);
            out.printf(
                    "  -> %s -> %s (%s)%n",
                    t.getFrom() == null ? "(new)" : t.getFrom(), t.getTo(), why(t.getReason(), t.getMessage()));
            if (explain) {
                Transition cause = step.causes().get(i);
                out.printf(
                        "     event %s, action %s, %s%n",
                        t.getEvent(),
                        cause.action() == null ? "none" : cause.action(),
                        cause.policy() == null
                                ? "no policy matched: the phase's own rule"
                                : "policy " + cause.policy() + " matched");
            }
        }
    }

    /** "reason: message", without repeating the reason when the message already starts with it. */
    static String why(String reason, String message) {
        if (message == null || message.isEmpty()) {
            return reason == null ? "-" : reason;
        }
        if (reason == null || message.startsWith(reason + ":") || message.equals(reason)) {
            return message;
        }
        return reason + ": " + message;
    }

    private Predicate<ReplayInput> bound(String text) {
        if (text == null) {
            return in -> true;
        }
        if (text.chars().allMatch(Character::isDigit) && !text.isEmpty()) {
            long offset = Long.parseLong(text);
            return in -> in.offset() <= offset;
        }
        try {
            long time = Instant.parse(text).toEpochMilli();
            return in -> in.timestamp() <= time;
        } catch (DateTimeParseException e) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(),
                    "--until: expected an ISO-8601 time (2026-01-01T10:00:00Z) or an offset, got \"" + text + "\"");
        }
    }
}
