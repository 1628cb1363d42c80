package io.lahar.core.flow;

import io.lahar.core.api.Job;
import io.lahar.core.api.JobFlow;
import io.lahar.core.api.JobPhase;
import io.lahar.core.api.JobStatus;
import io.lahar.core.api.JobTemplate;
import io.lahar.core.api.TaskSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * "What would happen if..." for a JobFlow: the flow engine against a world where the jobs it
 * creates exist at once (Pending) and the jobs it deletes vanish. The script says what the jobs
 * do. Deterministic: time starts at the epoch and moves only with {@code advance}.
 */
public final class FlowSimulation {

    private final JobFlowController controller = new JobFlowController();
    private final JobFlow flow;
    private final List<JobTemplate> templates;
    private FlowInfo state = FlowInfo.empty();
    private long time;
    /** The jobs that exist, by name: their phase and their pods' phases per task. */
    private final Map<String, WorldJob> world = new LinkedHashMap<>();

    private record WorldJob(Job job, JobPhase phase, Map<String, JobStatus.TaskState> tasks) {}

    /** @param admitted the JobFlow as admission accepted it (defaults applied) */
    public FlowSimulation(JobFlow admitted, List<JobTemplate> templates) {
        this.flow = admitted;
        this.templates = List.copyOf(templates);
    }

    /** Step 0: the flow is submitted. */
    public FlowStepReport start() {
        return apply(0, new FlowInput.Submit(flow, templates, time), null);
    }

    public FlowStepReport run(int step, FlowStep s) {
        return switch (s) {
            case FlowStep.DeleteStep d -> apply(step, new FlowInput.Delete(time), null);
            case FlowStep.AdvanceStep a -> {
                time += a.by().toMillis();
                yield apply(step, new FlowInput.Tick(time), null);
            }
            case FlowStep.TemplateStep t -> apply(step, new FlowInput.TemplateChanged(t.template(), time), null);
            case FlowStep.JobPhaseStep j -> {
                String name = jobName(j.template());
                WorldJob w = world.get(name);
                if (w == null) {
                    yield apply(step, null, missing(j.template(), name));
                }
                WorldJob now = new WorldJob(w.job(), j.phase(), w.tasks());
                world.put(name, now);
                yield apply(step, observed(name, now), null);
            }
            case FlowStep.TaskPhaseStep t -> {
                String name = jobName(t.template());
                WorldJob w = world.get(name);
                if (w == null) {
                    yield apply(step, null, missing(t.template(), name));
                }
                TaskSpec task = w.job().spec().tasksOrEmpty().stream()
                        .filter(x -> x != null && t.task().equals(x.name()))
                        .findFirst()
                        .orElse(null);
                if (task == null) {
                    yield apply(step, null, "job " + name + " has no task " + t.task());
                }
                Map<String, JobStatus.TaskState> tasks = new TreeMap<>(w.tasks());
                // Every pod of the task moves together: the task "reached" the phase.
                tasks.put(
                        t.task(),
                        new JobStatus.TaskState(Map.of(t.phase().name(), Math.max(1, task.replicasOrZero()))));
                WorldJob now = new WorldJob(w.job(), w.phase(), tasks);
                world.put(name, now);
                yield apply(step, observed(name, now), null);
            }
        };
    }

    public FlowInfo state() {
        return state;
    }

    private String missing(String template, String name) {
        boolean known = state.jobs().containsKey(template);
        return known
                ? "job " + name + " does not exist (not created yet, or deleted)"
                : "no flow entry \"" + template + "\" in jobflow " + flow.name();
    }

    private FlowInput observed(String name, WorldJob w) {
        return new FlowInput.JobStatusObserved(name, w.phase(), w.tasks(), 0, time);
    }

    private FlowStepReport apply(int step, FlowInput input, String ignored) {
        List<String> deleted = new ArrayList<>();
        List<String> transitions = new ArrayList<>();
        List<String> events = new ArrayList<>();
        if (input != null) {
            FlowOutcome o = controller.apply(state, input);
            state = o.state();
            for (FlowAction a : o.actions()) {
                switch (a) {
                    case FlowAction.CreateJob c ->
                        world.put(c.job().name(), new WorldJob(c.job(), JobPhase.Pending, Map.of()));
                    case FlowAction.DeleteJob d -> {
                        if (world.remove(d.name()) != null) {
                            deleted.add(d.name());
                        }
                    }
                }
            }
            o.transitions()
                    .forEach(t ->
                            transitions.add((t.from() == null ? "" : t.from() + " -> ") + t.to() + ": " + t.message()));
            o.events().forEach(e -> events.add(e.reason() + ": " + e.message()));
        }
        List<String> created = new ArrayList<>();
        Map<String, String> jobs = new LinkedHashMap<>();
        for (FlowJob j : state.jobs().values()) {
            WorldJob w = world.get(j.name());
            if (w != null) {
                created.add(j.name());
                jobs.put(j.name(), w.phase().name());
            }
        }
        return new FlowStepReport(
                step,
                state.phase() == null ? null : state.phase().name(),
                created,
                jobs,
                deleted,
                state.status(),
                transitions.isEmpty() ? null : transitions,
                events.isEmpty() ? null : events,
                ignored);
    }

    private String jobName(String template) {
        return flow.name() + "-" + template;
    }
}
