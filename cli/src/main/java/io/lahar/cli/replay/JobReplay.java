package io.lahar.cli.replay;

import io.lahar.core.admission.AdmissionContext;
import io.lahar.core.admission.Violation;
import io.lahar.core.api.PodGroup;
import io.lahar.core.command.CommandStep;
import io.lahar.core.command.JobRequest;
import io.lahar.core.command.JobVerdict;
import io.lahar.core.job.Input;
import io.lahar.core.job.JobController;
import io.lahar.core.job.JobInfo;
import io.lahar.core.job.Outcome;
import io.lahar.core.job.PodEvents;
import io.lahar.core.job.PodGroupDecisions;
import io.lahar.core.job.TimerClock;
import io.lahar.core.job.Transition;
import io.lahar.schema.Bind;
import io.lahar.schema.DeleteJob;
import io.lahar.schema.Evict;
import io.lahar.schema.JobActionCommand;
import io.lahar.schema.JobCommand;
import io.lahar.schema.JobTransition;
import io.lahar.schema.PodEvent;
import io.lahar.schema.PodGroupStatus;
import io.lahar.schema.SchedulerDecision;
import io.lahar.schema.Tick;
import io.lahar.schema.Topics;
import io.lahar.schema.codec.JobCommandCodec;
import io.lahar.schema.codec.JobTransitionCodec;
import io.lahar.schema.codec.PodEventCodec;
import io.lahar.schema.codec.SchedulerDecisionCodec;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One job's lifecycle re-run from its inputs, the way the streams-app's lifecycle node runs it
 * (CommandInput, PodEventInput, DecisionInput, ClockInput over JobEngine): the command gate with
 * its idempotency by requestId, the action gate, the pod events' job-uid filter, the scheduler
 * epochs and pod-group name check, and the clock that never goes back and moves at most
 * {@code maxClockStep} per tick. Each input gives a {@link Step} with the transition records the
 * streams-app wrote for it, built with the same codec.
 *
 * <p>The rules are the core's, called by both ({@link CommandStep}, {@link PodEvents},
 * {@link PodGroupDecisions}, {@link TimerClock}); what stays here is holding one job's state
 * instead of a state store, and saying in words why an input changed nothing.
 */
public final class JobReplay {

    /** What one input did: its kind and summary, the transitions, or why it changed nothing. */
    public record Step(
            ReplayInput input,
            String kind,
            String summary,
            List<JobTransition> transitions,
            List<Transition> causes,
            String note) {}

    private final String namespace;
    private final String name;
    private final String key;
    private final long maxClockStep;
    private final java.util.function.LongFunction<AdmissionContext> admission;
    private final JobController controller = new JobController();

    private List<JobVerdict> recent = List.of();
    private JobInfo info = JobInfo.empty();
    private long schedulerEpoch;
    private List<PodGroup.PodGroupCondition> conditions = List.of();
    private OptionalLong clock = OptionalLong.empty();
    /** A job whose timers failed to fire leaves the timer index until its next input (as ClockInput does). */
    private boolean timerDropped;

    /** Replays against the queues every install has ({@code root}, {@code default}). */
    public JobReplay(String namespace, String name, long maxClockStep) {
        this(namespace, name, maxClockStep, QueueHistory.none());
    }

    /** @param queues what admission knows of the queues at an input's record timestamp */
    public JobReplay(String namespace, String name, long maxClockStep, QueueHistory queues) {
        this.namespace = namespace;
        this.name = name;
        this.key = Topics.jobKey(namespace, name);
        this.maxClockStep = maxClockStep;
        this.admission = queues::admissionAt;
    }

    public JobInfo info() {
        return info;
    }

    /** Runs one input; an input the streams-app would dead-letter changes nothing and says why. */
    public Step step(ReplayInput in) {
        if (in.value() == null) {
            return new Step(in, "undecodable", "", List.of(), List.of(), "dead-lettered: value does not decode");
        }
        try {
            return switch (in.value()) {
                case JobCommand c -> command(in, c);
                case PodEvent e -> podEvent(in, e);
                case SchedulerDecision d -> decision(in, d);
                case Tick t -> tick(in, t);
                default ->
                    new Step(
                            in,
                            "unknown",
                            in.value().getClass().getSimpleName(),
                            List.of(),
                            List.of(),
                            "not an input of the job lifecycle");
            };
        } catch (RuntimeException e) {
            return new Step(in, kindOf(in.value()), "", List.of(), List.of(), "dead-lettered: " + e.getMessage());
        }
    }

    private static String kindOf(Object value) {
        return switch (value) {
            case JobCommand c -> "command";
            case PodEvent e -> "pod-event";
            case SchedulerDecision d -> "decision";
            case Tick t -> "tick";
            default -> "unknown";
        };
    }

    private Step command(ReplayInput in, JobCommand command) {
        String summary = JobCommandCodec.kindOf(command) + " " + command.getRequestId() + " from " + command.getSender()
                + messageOf(command).map(m -> " \"" + m + "\"").orElse("");
        String expected = Topics.jobKey(command.getNamespace(), command.getName());
        if (!in.key().equals(expected)) {
            return note(in, "command", summary, "rejected: key does not match the command's job " + expected);
        }
        JobRequest request;
        try {
            request = JobCommandCodec.toRequest(command);
        } catch (IllegalArgumentException e) {
            return note(in, "command", summary, "rejected: " + e.getMessage());
        }
        CommandStep step = CommandStep.of(info, recent, request, admission.apply(in.timestamp()));
        if (step.replayed()) {
            return note(in, "command", summary, "a retry: answered from the recent verdicts, nothing applied");
        }
        if (step.input() != null) {
            return apply(in, "command", summary, step.input(), step.recent());
        }
        if (step.recent() != null) {
            recent = step.recent();
            timerDropped = false;
        }
        JobVerdict verdict = step.verdict();
        return note(
                in,
                "command",
                summary,
                verdict.accepted() ? "accepted, no change" : "rejected: " + violations(verdict.violations()));
    }

    private Step podEvent(ReplayInput in, PodEvent event) {
        String summary = event.getPod() + " " + event.getPhase() + (event.getDeleted() ? " (deleted)" : "");
        String expected = Topics.jobKey(event.getNamespace(), event.getJob());
        if (!in.key().equals(expected)) {
            throw new IllegalArgumentException(
                    "key: record key \"" + in.key() + "\" does not match the event's job \"" + expected + "\"");
        }
        Input.PodObserved input = PodEventCodec.toInput(event);
        Optional<String> notForJob = PodEvents.notForJob(event.getJobUid(), info);
        if (notForJob.isPresent()) {
            return note(in, "pod-event", summary, notForJob.get());
        }
        return apply(in, "pod-event", summary, input, recent);
    }

    private Step decision(ReplayInput in, SchedulerDecision decision) {
        String summary = decision.getPodGroup() + " epoch " + decision.getEpoch() + " "
                + switch (decision.getDecision()) {
                    case PodGroupStatus s -> "phase " + s.getPhase();
                    case Bind b -> "bind pod " + b.getPod() + " to node " + b.getNode() + " (" + b.getAction() + ")";
                    case Evict e -> "evict pod " + e.getPod() + " (" + e.getAction() + "): " + e.getReason();
                    default -> decision.getDecision().getClass().getSimpleName();
                };
        String expected = Topics.jobKey(decision.getNamespace(), decision.getJob());
        if (!in.key().equals(expected)) {
            throw new IllegalArgumentException(
                    "key: record key \"" + in.key() + "\" does not match the decision's job \"" + expected + "\"");
        }
        Optional<Input.PodGroupObserved> observed = SchedulerDecisionCodec.toInput(decision);
        if (observed.isEmpty()) {
            return note(in, "decision", summary, "reaches the job through its pods' events");
        }
        Optional<String> notForJob = PodGroupDecisions.notForJob(
                decision.getEpoch(), decision.getPodGroup(), decision.getPodGroupVersion(), schedulerEpoch, info);
        if (notForJob.isPresent()) {
            return note(in, "decision", summary, notForJob.get());
        }
        List<PodGroup.PodGroupCondition> next =
                SchedulerDecisionCodec.conditions((PodGroupStatus) decision.getDecision());
        long epochBefore = schedulerEpoch;
        List<PodGroup.PodGroupCondition> conditionsBefore = conditions;
        schedulerEpoch = decision.getEpoch();
        conditions = next;
        try {
            return apply(in, "decision", summary, observed.get(), recent);
        } catch (RuntimeException e) {
            schedulerEpoch = epochBefore;
            conditions = conditionsBefore;
            throw e;
        }
    }

    private Step tick(ReplayInput in, Tick tick) {
        long announced = tick.getTime().toEpochMilli();
        String summary = tick.getTime().toString();
        // The streams-app dead-letters a tick keyed other than its partition's number (InputRecords.requireClockKey).
        if (!in.key().equals(Topics.clockKey(in.partition()))) {
            return note(
                    in,
                    "tick",
                    summary,
                    "dead-lettered: the key \"" + in.key() + "\" is not the number of its partition, "
                            + in.partition());
        }
        OptionalLong next = TimerClock.advance(clock, announced, maxClockStep);
        if (next.isEmpty()) {
            return note(in, "tick", summary, "late or repeated: time does not go back");
        }
        long time = next.getAsLong();
        clock = next;
        OptionalLong due = info.nextDue();
        if (timerDropped || due.isEmpty() || due.getAsLong() > time) {
            return note(in, "tick", summary, "no timer due");
        }
        try {
            return apply(
                    in,
                    "tick",
                    summary + (time != announced ? " (clock at " + java.time.Instant.ofEpochMilli(time) + ")" : ""),
                    new Input.Tick(time),
                    recent);
        } catch (RuntimeException e) {
            timerDropped = true;
            return note(
                    in, "tick", summary, "timers could not fire, the job leaves the timer index: " + e.getMessage());
        }
    }

    private Step apply(ReplayInput in, String kind, String summary, Input input, List<JobVerdict> nextRecent) {
        Outcome outcome = controller.apply(info, input);
        info = outcome.state();
        recent = nextRecent;
        timerDropped = false;
        List<JobTransition> records = JobTransitionCodec.toRecords(
                info, outcome.transitions(), new JobTransitionCodec.Source(in.topic(), in.partition(), in.offset()));
        return new Step(in, kind, summary, records, info.job() == null ? List.of() : outcome.transitions(), null);
    }

    private Step note(ReplayInput in, String kind, String summary, String note) {
        return new Step(in, kind, summary, List.of(), List.of(), note);
    }

    /** The user's words on a delete or an action command, when given. */
    private static Optional<String> messageOf(JobCommand command) {
        Object message = switch (command.getCommand()) {
            case DeleteJob d -> d.getMessage();
            case JobActionCommand a -> a.getMessage();
            default -> null;
        };
        return message == null || message.toString().isBlank() ? Optional.empty() : Optional.of(message.toString());
    }

    private static String violations(List<Violation> violations) {
        return String.join(
                "; ",
                violations.stream().map(v -> v.path() + ": " + v.message()).toList());
    }

    public String key() {
        return key;
    }

    public String namespace() {
        return namespace;
    }

    public String name() {
        return name;
    }
}
