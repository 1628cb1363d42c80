package io.lahar.core.sim;

import io.lahar.core.admission.AdmissionContext;
import io.lahar.core.admission.AdmissionResult;
import io.lahar.core.admission.JobAdmission;
import io.lahar.core.api.Job;
import io.lahar.core.api.JobSpec;
import io.lahar.core.api.JobStatus;
import io.lahar.core.api.PodGroupPhase;
import io.lahar.core.api.TaskSpec;
import io.lahar.core.job.Input;
import io.lahar.core.job.JobController;
import io.lahar.core.job.JobInfo;
import io.lahar.core.job.JobPod;
import io.lahar.core.job.JobPods;
import io.lahar.core.job.Outcome;
import io.lahar.core.job.PodPhase;
import io.lahar.core.job.Transition;
import io.lahar.core.job.WorldAction;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.UnaryOperator;

/**
 * "What would happen if...": the job engine against a world that answers at once. The pods the
 * engine creates exist immediately as Pending, the pods it deletes vanish, its pod group is
 * admitted (Inqueue) as soon as it exists. With {@code manual}, the world does only what the
 * script says: the pod group waits for a {@code podgroup} step, deletions for a {@code settle}.
 * Deterministic: time starts at the epoch and moves only with {@code advance}.
 */
public final class Simulation {

    /** Bound on the engine/world exchanges of one step; a loop past it is a bug, not a scenario. */
    private static final int MAX_EXCHANGES = 100_000;

    private final JobController controller = new JobController();
    private final AdmissionContext admission;
    private final boolean manual;
    private final String jobName;

    private JobInfo state = JobInfo.empty();
    private long time;
    private final Map<String, WorldPod> world = new TreeMap<>();
    private final TreeSet<String> deleting = new TreeSet<>();
    private boolean podGroupExists;
    private PodGroupPhase podGroupPhase;
    private final List<WorldAction> log = new ArrayList<>();
    private final List<Transition> stepTransitions = new ArrayList<>();
    private int stepStart;

    /** A pod as the world has it. */
    private record WorldPod(String task, int index, int version, PodPhase phase, Integer exitCode, int restartCount) {}

    /**
     * @param admitted the job as admission accepted it (defaults applied)
     * @param admission what exists, for admitting updates
     */
    public Simulation(Job admitted, AdmissionContext admission, boolean manual) {
        this(admitted, admission, manual, UnaryOperator.identity());
    }

    /**
     * @param store what becomes of the state between two inputs; the streams app writes it to a
     *              store as JSON, and a simulation can do the same to show that changes nothing
     */
    public Simulation(Job admitted, AdmissionContext admission, boolean manual, UnaryOperator<JobInfo> store) {
        this.admission = admission;
        this.manual = manual;
        this.jobName = admitted.name();
        this.pendingSubmit = admitted;
        this.store = store;
    }

    private final UnaryOperator<JobInfo> store;

    private Job pendingSubmit;

    /** Submits the job; the report of step 0. */
    public StepReport start() {
        stepTransitions.clear();
        stepStart = log.size();
        feed(new Input.Submit(pendingSubmit, time));
        return report(0, null, null);
    }

    /** Runs one script step and reports the job after it. */
    public StepReport run(int step, ScriptStep s) {
        stepTransitions.clear();
        stepStart = log.size();
        List<String> rejected = null;
        String ignored = null;
        switch (s) {
            case ScriptStep.PodStep p -> ignored = pod(p);
            case ScriptStep.CommandStep c ->
                feed(new Input.Command(c.action(), c.task(), c.pod() == null ? null : jobName + "-" + c.pod(), time));
            case ScriptStep.AdvanceStep a -> {
                time += a.duration().toMillis();
                feed(new Input.Tick(time));
            }
            case ScriptStep.UpdateStep u -> rejected = update(u);
            case ScriptStep.PodGroupStep g -> {
                if (podGroupExists) {
                    podGroupPhase = g.phase();
                    feed(new Input.PodGroupObserved(g.phase(), time));
                } else {
                    ignored = "the job has no pod group now";
                }
            }
            case ScriptStep.SettleStep x -> settle();
        }
        return report(step, rejected, ignored);
    }

    /** Every world action the engine asked for so far, in order. */
    public List<WorldAction> actions() {
        return List.copyOf(log);
    }

    /** The world actions the engine asked for during the last step, in order. */
    public List<WorldAction> stepActions() {
        return List.copyOf(log.subList(stepStart, log.size()));
    }

    /** A world action in a few words: "CreatePod tf-job-worker-0", "DeletePodGroup tf-job". */
    public static String describe(WorldAction a) {
        return switch (a) {
            case WorldAction.CreatePod c -> "CreatePod " + c.name() + " (version " + c.version() + ")";
            case WorldAction.DeletePod d -> "DeletePod " + d.name() + " (" + d.reason() + ")";
            case WorldAction.UpsertPodGroup u ->
                "UpsertPodGroup " + u.podGroup().metadata().name() + " (minMember "
                        + u.podGroup().spec().minMember() + ")";
            case WorldAction.DeletePodGroup d -> "DeletePodGroup " + d.name();
            case WorldAction.CreateObject o -> "Create" + o.kind() + " " + o.name();
            case WorldAction.CreateConfigMap c -> "CreateConfigMap " + c.name();
            case WorldAction.RequestSshSecret r -> "RequestSshSecret " + r.name();
            case WorldAction.CreatePersistentVolumeClaim c -> "CreatePersistentVolumeClaim " + c.name();
            case WorldAction.DeleteObject d -> "Delete" + d.kind() + " " + d.name();
            case WorldAction.DeleteJob d -> "DeleteJob (" + d.reason() + ")";
        };
    }

    public JobInfo state() {
        return state;
    }

    /** Applies a pod step; returns why it was ignored, or null. */
    private String pod(ScriptStep.PodStep p) {
        String name = JobPods.podName(jobName, p.task(), p.index());
        WorldPod w = world.get(name);
        if (w == null) {
            // Not a bad line: the script may be ahead of (or behind) what the engine did.
            return "pod " + p.task() + "-" + p.index() + " does not exist (not created yet, or deleted)";
        }
        if (p.evicted()) {
            world.remove(name);
            deleting.remove(name);
            feed(new Input.PodObserved(
                    name, w.task(), w.index(), w.version(), w.phase(), w.exitCode(), w.restartCount(), true, time));
            return null;
        }
        PodPhase phase = p.phase() == null ? w.phase() : p.phase();
        Integer exit = p.exitCode() != null ? p.exitCode() : (p.phase() == null ? w.exitCode() : null);
        int restarts = p.restartCount() == null ? w.restartCount() : p.restartCount();
        WorldPod now = new WorldPod(w.task(), w.index(), w.version(), phase, exit, restarts);
        world.put(name, now);
        feed(new Input.PodObserved(name, now.task(), now.index(), now.version(), phase, exit, restarts, false, time));
        return null;
    }

    private List<String> update(ScriptStep.UpdateStep u) {
        Job current = state.job().withStatus(null);
        JobSpec spec = current.spec();
        List<TaskSpec> tasks = new ArrayList<>(spec.tasksOrEmpty());
        for (ScriptStep.UpdateStep.TaskScale scale : u.tasks()) {
            int i = indexOf(tasks, scale.name());
            if (i < 0) {
                return List.of(
                        "error: spec.tasks: the job has no task \"" + scale.name() + "\" (updates may not add tasks)");
            }
            TaskSpec t = tasks.get(i);
            if (scale.replicas() != null) {
                t = t.withReplicas(scale.replicas());
            }
            if (scale.minAvailable() != null) {
                t = t.withMinAvailable(scale.minAvailable());
            }
            tasks.set(i, t);
        }
        spec = spec.withTasks(tasks);
        if (u.minAvailable() != null) {
            spec = spec.withMinAvailable(u.minAvailable());
        }
        if (u.priorityClassName() != null) {
            spec = spec.withPriorityClassName(u.priorityClassName());
        }
        AdmissionResult<Job> r = JobAdmission.update(current, current.withSpec(spec), admission);
        if (!r.accepted()) {
            return r.violations().stream().map(v -> "error: " + v).toList();
        }
        feed(new Input.Update(r.object(), time));
        return null;
    }

    private static int indexOf(List<TaskSpec> tasks, String name) {
        for (int i = 0; i < tasks.size(); i++) {
            if (tasks.get(i).name().equals(name)) {
                return i;
            }
        }
        return -1;
    }

    /** Everything outstanding completes: asked deletions, then the pod group's admission. */
    private void settle() {
        for (int round = 0; round < 1000; round++) {
            if (!deleting.isEmpty()) {
                for (String name : new ArrayList<>(deleting)) {
                    deleting.remove(name);
                    WorldPod w = world.remove(name);
                    if (w != null) {
                        feed(new Input.PodObserved(
                                name,
                                w.task(),
                                w.index(),
                                w.version(),
                                w.phase(),
                                w.exitCode(),
                                w.restartCount(),
                                true,
                                time));
                    }
                }
            } else if (podGroupExists && podGroupPhase == PodGroupPhase.Pending) {
                podGroupPhase = PodGroupPhase.Inqueue;
                feed(new Input.PodGroupObserved(PodGroupPhase.Inqueue, time));
            } else {
                return;
            }
        }
    }

    /** Hands {@code first} to the engine, then the world's answers to what it asked, until quiet. */
    private void feed(Input first) {
        Deque<Input> queue = new ArrayDeque<>();
        queue.add(first);
        for (int n = 0; !queue.isEmpty(); n++) {
            if (n > MAX_EXCHANGES) {
                throw new IllegalStateException(
                        "the engine and the simulated world did not settle after " + MAX_EXCHANGES + " exchanges");
            }
            Outcome o = controller.apply(state, queue.poll());
            state = store.apply(o.state());
            stepTransitions.addAll(o.transitions());
            for (WorldAction a : o.actions()) {
                log.add(a);
                react(a, queue);
            }
        }
    }

    private void react(WorldAction a, Deque<Input> queue) {
        switch (a) {
            case WorldAction.CreatePod c -> {
                world.put(c.name(), new WorldPod(c.task(), c.index(), c.version(), PodPhase.Pending, null, 0));
                deleting.remove(c.name());
                queue.add(new Input.PodObserved(
                        c.name(), c.task(), c.index(), c.version(), PodPhase.Pending, null, 0, false, time));
            }
            case WorldAction.DeletePod d -> {
                if (manual) {
                    if (world.containsKey(d.name())) {
                        deleting.add(d.name());
                    }
                } else {
                    WorldPod w = world.remove(d.name());
                    JobPod known = state.pods().get(d.name());
                    if (w != null) {
                        queue.add(new Input.PodObserved(
                                d.name(),
                                w.task(),
                                w.index(),
                                w.version(),
                                w.phase(),
                                w.exitCode(),
                                w.restartCount(),
                                true,
                                time));
                    } else if (known != null) {
                        queue.add(new Input.PodObserved(
                                d.name(),
                                known.task(),
                                known.index(),
                                known.version(),
                                known.phase(),
                                known.exitCode(),
                                known.restartCount(),
                                true,
                                time));
                    }
                }
            }
            case WorldAction.UpsertPodGroup u -> {
                if (!podGroupExists) {
                    podGroupExists = true;
                    podGroupPhase = PodGroupPhase.Pending;
                    if (!manual) {
                        podGroupPhase = PodGroupPhase.Inqueue;
                        queue.add(new Input.PodGroupObserved(PodGroupPhase.Inqueue, time));
                    }
                }
            }
            case WorldAction.DeletePodGroup d -> {
                podGroupExists = false;
                podGroupPhase = null;
            }
            default -> {
                // Services, ConfigMaps, Secrets, claims, the job's own deletion: nothing to answer.
            }
        }
    }

    private StepReport report(int step, List<String> rejected, String ignored) {
        JobStatus st = state.job().status();
        int version = st.version() == null ? 0 : st.version();
        Map<String, Integer> taskOrder = new LinkedHashMap<>();
        for (TaskSpec t : state.job().spec().tasksOrEmpty()) {
            taskOrder.put(t.name(), taskOrder.size());
        }
        List<JobPod> current = new ArrayList<>(state.pods().values().stream()
                .filter(p -> p.version() == version)
                .toList());
        current.sort(Comparator.<JobPod>comparingInt(p -> taskOrder.getOrDefault(p.task(), Integer.MAX_VALUE))
                .thenComparing(JobPod::task)
                .thenComparingInt(JobPod::index));
        Map<String, String> pods = new LinkedHashMap<>();
        for (JobPod p : current) {
            pods.put(
                    p.task() + "-" + p.index(),
                    p.terminating() ? "Terminating" : p.phase().name());
        }
        List<String> entered = stepTransitions.stream().map(t -> t.to().name()).toList();
        return new StepReport(
                step,
                st.state().phase().name(),
                version,
                nz(st.retryCount()),
                nz(st.pending()),
                nz(st.running()),
                nz(st.succeeded()),
                nz(st.failed()),
                nz(st.terminating()),
                nz(st.unknown()),
                st.state().reason(),
                st.state().message(),
                entered,
                pods,
                state.deleted() ? Boolean.TRUE : null,
                rejected,
                ignored);
    }

    private static int nz(Integer i) {
        return i == null ? 0 : i;
    }
}
