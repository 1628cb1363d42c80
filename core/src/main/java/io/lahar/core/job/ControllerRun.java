package io.lahar.core.job;

import io.lahar.core.api.Action;
import io.lahar.core.api.Event;
import io.lahar.core.api.Job;
import io.lahar.core.api.JobPhase;
import io.lahar.core.api.JobSpec;
import io.lahar.core.api.JobState;
import io.lahar.core.api.JobStatus;
import io.lahar.core.api.PodGroup;
import io.lahar.core.api.PodGroupPhase;
import io.lahar.core.api.TaskDependsOn;
import io.lahar.core.api.TaskSpec;
import io.lahar.core.api.VolumeSpec;
import io.lahar.core.job.plugins.JobPlugin;
import io.lahar.core.job.plugins.JobPlugins;
import io.lahar.core.job.state.JobActions;
import io.lahar.core.job.state.PhaseState;
import io.lahar.core.job.state.RetainPhases;
import io.lahar.core.job.state.StateAction;
import io.lahar.core.job.state.StatusUpdater;
import io.lahar.core.job.state.StatusView;
import io.lahar.core.job.state.Target;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * One application of an input to a job: a mutable working copy of {@link JobInfo} that the
 * phase states drive through {@link JobActions}, frozen again by {@link #outcome()}. Mirrors
 * Volcano's processNextReq: update the pod cache, raise the event, cancel delayed actions the
 * event makes moot, resolve the policies, execute the action in the current phase's state.
 */
final class ControllerRun implements JobActions {

    /** A phase change is followed by a sync, as Volcano's job-update event follows its status write. */
    private static final int MAX_FOLLOW_UPS = 16;
    /** Conditions are a history; keep the record bounded. */
    private static final int MAX_CONDITIONS = 50;
    private static final int DEFAULT_MAX_RETRY = 3;
    /** Volcano's pod group condition type for a gang the scheduler could not place. */
    private static final String UNSCHEDULABLE = "Unschedulable";

    private final long now;
    private final SpecMemo specs;
    private Job job;
    private long createdAt;
    private boolean deleted;
    private String lastCause;

    private JobPhase phase;
    private String reason;
    private String message;
    private String lastTransitionTime;
    private int minAvailable;
    private int pending;
    private int running;
    private int succeeded;
    private int failed;
    private int terminating;
    private int unknown;
    private int version;
    private int retryCount;
    private String runningDuration;
    /** The stored status's task counts, read only if the run does not count the pods itself. */
    private Map<String, JobStatus.TaskState> loadedTaskCounts;
    private TaskCounts taskCounts;
    // The stored job's resources, conditions, timers and ConfigMaps are taken as they are and copied
    // only when this run changes them (the *Owned flags): most inputs, a pod event among them, change
    // none, and copying the four on every event was a tenth of what the controller allocated.
    private Map<String, String> controlledResources = Map.of();
    private boolean resourcesOwned;
    private List<JobStatus.JobCondition> conditions = List.of();
    private boolean conditionsOwned;

    private final FrozenPods.Builder pods;
    private List<Timer> timers;
    private boolean timersOwned;
    private PodGroup.PodGroupSpec podGroupSpec;
    private PodGroupPhase podGroupPhase;
    private Map<String, Map<String, String>> configMaps;
    private boolean configMapsOwned;

    private final List<Transition> transitions = new ArrayList<>();
    private final List<WorldAction> actions = new ArrayList<>();

    // What is being executed right now: for the transition records and the version bump.
    private Request req;
    private PolicyMatch match;
    private PhaseState state;
    private boolean bumpVersion;
    private boolean phaseChanged;

    ControllerRun(JobInfo info, long now, SpecMemo specs) {
        this.now = now;
        this.specs = specs;
        this.job = info.job();
        this.createdAt = info.createdAt();
        this.deleted = info.deleted();
        this.lastCause = info.lastCause();
        this.pods = FrozenPods.copyOf(info.pods()).builder();
        this.timers = info.timers();
        this.podGroupSpec = info.podGroupSpec();
        this.podGroupPhase = info.podGroupPhase();
        this.configMaps = info.configMaps();
        JobStatus st = job == null ? null : job.status();
        if (st != null) {
            JobState s = st.state();
            if (s != null) {
                phase = s.phase();
                reason = s.reason();
                message = s.message();
                lastTransitionTime = s.lastTransitionTime();
            }
            minAvailable = nz(st.minAvailable());
            pending = nz(st.pending());
            running = nz(st.running());
            succeeded = nz(st.succeeded());
            failed = nz(st.failed());
            terminating = nz(st.terminating());
            unknown = nz(st.unknown());
            version = nz(st.version());
            retryCount = nz(st.retryCount());
            runningDuration = st.runningDuration();
            loadedTaskCounts = st.taskStatusCount();
            if (st.controlledResources() != null) {
                controlledResources = st.controlledResources();
            }
            if (st.conditions() != null) {
                conditions = st.conditions();
            }
        }
    }

    private static int nz(Integer i) {
        return i == null ? 0 : i;
    }

    // ---------------------------------------------------------------- inputs

    void handle(Input input) {
        if (input instanceof Input.Submit s) {
            if (job == null || deleted) {
                submit(s.job());
            } else {
                update(s.job());
            }
            fireDueTimers();
            return;
        }
        if (job == null) {
            return;
        }
        if (deleted) {
            // Only the pods' disappearance is still news: forget them.
            if (input instanceof Input.PodObserved p && p.deleted()) {
                pods.remove(p.pod());
            }
            return;
        }
        fireDueTimers();
        switch (input) {
            case Input.Update u -> update(u.job());
            case Input.Delete d -> deleteJob(null);
            case Input.Command c -> process(Request.command(c.action(), c.task(), c.pod(), version,
                    "command " + c.action().value() + targetText(c.task(), c.pod())));
            case Input.PodObserved p -> podObserved(p);
            case Input.PodGroupObserved g -> podGroupObserved(g);
            case Input.Tick t -> {
                // Timers already fired above.
            }
            case Input.Submit s -> throw new IllegalStateException("handled above");
        }
        fireDueTimers();
    }

    private static String targetText(String task, String pod) {
        if (pod != null) {
            return " for pod " + pod;
        }
        return task != null ? " for task " + task : "";
    }

    private void submit(Job submitted) {
        this.job = submitted.withStatus(null);
        this.createdAt = now;
        this.deleted = false;
        this.lastCause = null;
        pods.clear();
        ownTimers().clear();
        ownConfigMaps().clear();
        podGroupSpec = null;
        podGroupPhase = null;
        version = 0;
        retryCount = 0;
        pending = running = succeeded = failed = terminating = unknown = 0;
        taskCounts = new TaskCounts();
        ownResources().clear();
        ownConditions().clear();
        minAvailable = specMinAvailable();
        req = Request.sync(0);
        match = PolicyMatch.sync();
        phase = null;
        JobSpec spec = job.spec();
        record(JobPhase.Pending, "Created", "job created: " + spec.tasksOrEmpty().size() + " task(s), "
                + spec.totalReplicas() + " pod(s), minAvailable " + specMinAvailable() + ", queue "
                + (spec.queue() == null ? "default" : spec.queue()), false);
        initiateJob();
        process(Request.sync(version));
    }

    /**
     * Volcano's initiateJob: each plugin's objects unless it already owns them (a kill gives them
     * back, so a restarted job gets them anew), the job's volumes, then the pod group.
     */
    private void initiateJob() {
        for (JobPlugin p : plugins()) {
            String key = "plugin-" + p.name();
            if (p.name().equals(controlledResources.get(key))) {
                continue;
            }
            for (WorldAction a : p.onJobAdd(job)) {
                emitPluginAction(a);
            }
            ownResources().put(key, p.name());
        }
        List<VolumeSpec> volumes = job.spec().volumesOrEmpty();
        for (int i = 0; i < volumes.size(); i++) {
            VolumeSpec v = volumes.get(i);
            String claim = JobPods.claimName(job, i);
            if ((v.volumeClaimName() == null || v.volumeClaimName().isEmpty()) && v.volumeClaim() != null
                    && !controlledResources.containsKey("volume-pvc-" + claim)) {
                actions.add(new WorldAction.CreatePersistentVolumeClaim(claim, v.volumeClaim().deepCopy()));
                ownResources().put("volume-pvc-" + claim, claim);
            }
        }
        createOrUpdatePodGroup();
    }

    /** Volcano's pluginOnJobDelete, run on every kill: plugins delete the objects they own. */
    private void releasePlugins() {
        for (JobPlugin p : plugins()) {
            if (!controlledResources.containsKey("plugin-" + p.name())) {
                continue;
            }
            ownResources().remove("plugin-" + p.name());
            for (WorldAction a : p.onJobDelete(job)) {
                if (a instanceof WorldAction.DeleteObject d && d.kind().equals("ConfigMap")) {
                    ownConfigMaps().remove(d.name());
                }
                actions.add(a);
            }
        }
    }

    private void update(Job updated) {
        Job previous = job;
        this.job = updated.withStatus(null).withMetadata(updated.metadata() == null ? previous.metadata()
                : updated.metadata());
        process(Request.job(Event.JOB_UPDATED, version, "job spec updated (minAvailable " + specMinAvailable() + ", "
                + job.spec().totalReplicas() + " pod(s))"));
    }

    private void podObserved(Input.PodObserved p) {
        JobPod old = pods.get(p.pod());
        if (old != null && p.version() < old.version()) {
            // News of an earlier pod of that name, replaced since: it says nothing about this one.
            return;
        }
        if (p.deleted()) {
            if (old == null) {
                return;
            }
            pods.remove(p.pod());
            if (old.terminating()) {
                // The deletion the engine asked for is done: not an eviction (Volcano's out-of-sync mark).
                process(Request.pod(Event.OUT_OF_SYNC, old, null));
            } else {
                process(Request.pod(Event.POD_EVICTED, old,
                        "pod " + old.name() + " was deleted by someone else while " + old.phase()));
            }
            return;
        }
        boolean seen = old != null && old.observed();
        PodPhase before = old == null ? null : old.phase();
        JobPod base = old != null ? old
                : new JobPod(p.pod(), p.task(), p.index(), p.version(), p.phase(), null, 0, false, false);
        Integer exit = p.phase() == PodPhase.Failed ? p.exitCode() : null;
        JobPod now = base.withPhase(p.phase(), exit, p.restartCount());
        pods.put(now.name(), now);
        String task = now.task();
        Request r;
        switch (p.phase()) {
            case Failed -> r = before != PodPhase.Failed || !seen
                    ? Request.podFailed(now, exit, "pod " + now.name() + (exit == null ? " failed" : " exited " + exit))
                    : Request.pod(Event.OUT_OF_SYNC, now, null);
            case Succeeded -> r = (before != PodPhase.Succeeded || !seen) && taskCompleted(task)
                    ? Request.pod(Event.TASK_COMPLETED, now,
                    "task " + task + " completed: all " + replicas(task) + " pod(s) succeeded")
                    : Request.pod(Event.OUT_OF_SYNC, now, null);
            case Pending, Running -> {
                if (taskFailed(task)) {
                    r = Request.pod(Event.TASK_FAILED, now, "task " + task + " containers restarted "
                            + taskRestarts(task) + " times, over its maxRetry " + taskMaxRetry(task));
                } else if (p.phase() == PodPhase.Running && (before != PodPhase.Running || !seen)) {
                    r = Request.pod(Event.POD_RUNNING, now, null);
                } else if (p.phase() == PodPhase.Pending && (before != PodPhase.Pending || !seen)) {
                    r = Request.pod(Event.POD_PENDING, now, "pod " + now.name() + " is Pending");
                } else {
                    r = Request.pod(Event.OUT_OF_SYNC, now, null);
                }
            }
            default -> r = Request.pod(Event.OUT_OF_SYNC, now, null);
        }
        process(r);
    }

    private void podGroupObserved(Input.PodGroupObserved g) {
        if (podGroupSpec == null) {
            // The engine deleted that pod group; news about it changes nothing.
            return;
        }
        PodGroupPhase old = podGroupPhase;
        podGroupPhase = g.phase();
        explainPending(g, old);
        if (old == g.phase()) {
            return;
        }
        if (g.phase() == PodGroupPhase.Unknown) {
            process(Request.job(Event.JOB_UNKNOWN, version, "pod group " + PodGroups.name(job)
                    + " is Unknown: part of the gang cannot be scheduled while some pods run"));
        } else {
            process(Request.sync(version));
        }
    }

    /**
     * A Pending job says why: the scheduler's Unschedulable condition on its pod group becomes the
     * job's state reason and message (the phase and its transition time stay), so the job status
     * answers "why is my job pending" without a look at the pod group. When the gang is admitted
     * the reason says so, rather than keep a stale "unschedulable".
     */
    private void explainPending(Input.PodGroupObserved g, PodGroupPhase old) {
        if (phase != JobPhase.Pending) {
            return;
        }
        if (g.message() != null) {
            reason = g.reason() != null ? g.reason() : UNSCHEDULABLE;
            message = "pod group " + PodGroups.name(job) + " is " + g.phase() + ": " + g.message();
        } else if (old != g.phase() && g.phase() != PodGroupPhase.Pending && g.phase() != PodGroupPhase.Unknown) {
            reason = g.phase().name();
            message = "pod group " + PodGroups.name(job) + " is " + g.phase() + ": its pods are being created";
        }
    }

    // ---------------------------------------------------------------- requests and policies

    private void process(Request r) {
        cleanPodDelayedActions(r);
        PolicyMatch m = Policies.resolve(job.spec(), r, version);
        if (m.delayed()) {
            arm(r, m);
            return;
        }
        execute(m, r);
        if (m.action() != Action.SYNC_JOB) {
            cleanupDelayedActions(m.action(), r.task(), r.pod());
        }
        followUps();
    }

    private void followUps() {
        for (int i = 0; phaseChanged && i < MAX_FOLLOW_UPS && !deleted; i++) {
            phaseChanged = false;
            execute(PolicyMatch.sync(), Request.sync(version));
        }
        phaseChanged = false;
    }

    private void execute(PolicyMatch m, Request r) {
        this.req = r;
        this.match = m;
        this.state = PhaseState.of(phase);
        this.bumpVersion = m.action() != Action.SYNC_JOB;
        Target target = switch (m.action()) {
            case RESTART_TASK -> Target.task(r.task());
            case RESTART_POD -> Target.pod(r.task(), r.pod());
            default -> null;
        };
        state.execute(new StateAction(m.action(), target), this);
    }

    /** A policy with a timeout: remember it; it fires on a later input unless the pod moves on. */
    private void arm(Request r, PolicyMatch m) {
        for (int i = 0; i < timers.size(); i++) {
            if (timers.get(i) instanceof Timer.DelayedAction d && Objects.equals(d.pod(), r.pod())) {
                if (d.action() == m.action()) {
                    recount();
                    return;
                }
                ownTimers().remove(i);
                break;
            }
        }
        String cause = (r.cause() == null ? r.event() : r.cause()) + " for " + GoDurations.format(m.delay().toMillis());
        ownTimers().add(new Timer.DelayedAction(now + m.delay().toMillis(), r.event(), m.action(), r.task(), r.pod(),
                version, m.policy(), cause));
        // Volcano leaves the status as it was until the action runs; the counts are refreshed here
        // so the status describes the pods the event was about.
        recount();
    }

    /**
     * A pod's new phase makes some of its delayed actions moot: leaving Pending cancels a
     * PodPending timeout, running again cancels a PodFailed or PodEvicted one.
     */
    private void cleanPodDelayedActions(Request r) {
        if (!r.aboutPod() || r.event() == Event.POD_PENDING) {
            return;
        }
        removeTimers(t -> t instanceof Timer.DelayedAction d && r.pod().equals(d.pod())
                && (d.event() == Event.POD_PENDING
                || (r.event() == Event.POD_RUNNING && (d.event() == Event.POD_FAILED || d.event() == Event.POD_EVICTED))));
    }

    /** After an action ran, delayed actions of the same scope are moot (Volcano's cleanupDelayActions). */
    private void cleanupDelayedActions(Action action, String task, String pod) {
        removeTimers(t -> t instanceof Timer.DelayedAction d && switch (action) {
            case RESTART_TASK -> Objects.equals(d.task(), task) && d.action() == Action.RESTART_TASK;
            case RESTART_POD -> Objects.equals(d.pod(), pod) && d.action() == Action.RESTART_POD;
            default -> d.action() != Action.RESTART_TASK && d.action() != Action.RESTART_POD;
        });
    }

    private void fireDueTimers() {
        for (int guard = 0; guard < 1000 && !deleted; guard++) {
            int due = -1;
            for (int i = 0; i < timers.size(); i++) {
                if (timers.get(i).due() <= now && (due < 0 || timers.get(i).due() < timers.get(due).due())) {
                    due = i;
                }
            }
            if (due < 0) {
                return;
            }
            Timer t = ownTimers().remove(due);
            switch (t) {
                case Timer.TtlAfterFinished ttl -> deleteJob("ttlSecondsAfterFinished "
                        + job.spec().ttlSecondsAfterFinished() + " expired");
                case Timer.DelayedAction d -> fire(d);
            }
        }
    }

    private void fire(Timer.DelayedAction d) {
        if (d.version() != version) {
            return;
        }
        if (d.event() == Event.POD_PENDING) {
            JobPod p = pods.get(d.pod());
            if (p == null || p.phase() != PodPhase.Pending || p.terminating()) {
                return;
            }
        }
        Request r = Request.fired(d);
        PolicyMatch m = new PolicyMatch(d.action(), Duration.ZERO, d.policy());
        execute(m, r);
        if (m.action() != Action.SYNC_JOB) {
            cleanupDelayedActions(m.action(), r.task(), r.pod());
        }
        followUps();
    }

    /** The job object is gone (deleted, or its TTL expired): so is everything it owned. */
    private void deleteJob(String ttlReason) {
        for (JobPod p : pods.values()) {
            if (!p.terminating()) {
                deletePod(p, "job deleted");
            }
        }
        if (podGroupSpec != null) {
            actions.add(new WorldAction.DeletePodGroup(PodGroups.name(job)));
            podGroupSpec = null;
            podGroupPhase = null;
        }
        releasePlugins();
        if (ttlReason != null) {
            actions.add(new WorldAction.DeleteJob(ttlReason));
        }
        ownTimers().clear();
        deleted = true;
    }

    // ---------------------------------------------------------------- JobActions

    @Override
    public void syncJob(StatusUpdater updater) {
        if (deleted) {
            return;
        }
        if (phase == JobPhase.Pending) {
            // Volcano initiates a job until it leaves Pending: plugins released by a kill come back.
            initiateJob();
        } else {
            refreshPlugins();
            createOrUpdatePodGroup();
        }
        // Pods are created only once the scheduler admitted the gang (pod group past Pending).
        boolean syncTask = podGroupPhase != null && podGroupPhase != PodGroupPhase.Pending;
        if (!syncTask) {
            applyUpdater(updater);
            return;
        }
        Set<String> specNames = specs.podNameSet(job);
        if (pods.size() == specNames.size() && pods.inSpec(specNames) == specNames.size()
                && !pods.tally().unfinishedBefore(version)) {
            // Every pod of the spec is there, none outside it, none of an older run alive: the
            // scan below would create and delete nothing, and count what the tally counts.
            recount();
            minAvailable = specMinAvailable();
            applyUpdater(updater);
            return;
        }
        resetCounts();
        List<TaskSpec> tasks = job.spec().tasksOrEmpty();
        List<JobPod> toCreate = new ArrayList<>();
        // The spec's pod names are distinct (a name ends in -<index>, task names are DNS labels):
        // when as many of them are known as there are pods, no pod is left outside the spec.
        int known = 0;
        String[][] names = specs.podNames(job);
        for (int ti = 0; ti < tasks.size(); ti++) {
            TaskSpec t = tasks.get(ti);
            boolean ready = dependenciesReady(t);
            for (int i = 0; i < names[ti].length; i++) {
                String name = names[ti][i];
                JobPod p = pods.get(name);
                if (p == null) {
                    if (ready) {
                        toCreate.add(new JobPod(name, t.name(), i, version, PodPhase.Pending, null, 0, false, false));
                    }
                    continue;
                }
                known++;
                if (p.terminating()) {
                    terminating++;
                } else if (p.version() < version && !p.phase().isTerminal()) {
                    // A live pod of a run the job left behind must not run beside the new one.
                    deletePod(p, "pod of job version " + p.version() + ", job is at version " + version);
                    terminating++;
                } else {
                    classify(p);
                }
            }
        }
        int outside = pods.size() - known;
        for (JobPod p : toCreate) {
            createPod(p);
            classify(p);
        }
        if (outside > 0) {
            deleteOutsideSpec(specNames);
        }
        minAvailable = specMinAvailable();
        applyUpdater(updater);
    }

    /** Volcano's syncJob deletes the pods no task of the spec has a place for (a scale down), and counts them terminating. */
    private void deleteOutsideSpec(Set<String> expected) {
        for (JobPod p : pods.values()) {
            if (!expected.contains(p.name())) {
                if (!p.terminating()) {
                    deletePod(p, "scaled down: task " + p.task() + " has " + replicas(p.task()) + " replica(s)");
                }
                terminating++;
            }
        }
    }

    @Override
    public void killJob(RetainPhases retain, StatusUpdater updater) {
        if (deleted) {
            return;
        }
        // At the last retry the finished pods are kept whatever the action, to show why it failed.
        RetainPhases kept = retryCount >= maxRetry() - 1 ? RetainPhases.SOFT : retain;
        resetCounts();
        String why = match.action() == Action.SYNC_JOB ? "job " + phase : match.action().value();
        for (JobPod p : pods.values()) {
            if (p.terminating()) {
                terminating++;
            } else if (!kept.retains(p.phase())) {
                deletePod(p, why);
                terminating++;
            } else {
                classify(p);
            }
        }
        if (bumpVersion) {
            // A new version: events from the pods of the old run no longer trigger policies.
            // Once per killing action, not per kill as in Volcano (see package-info).
            version++;
            bumpVersion = false;
        }
        runningDuration = GoDurations.format(now - createdAt);
        applyUpdater(updater);
        releasePlugins();
        if (podGroupSpec != null) {
            // Volcano deletes the pod group on a kill, so a restarted gang queues afresh.
            actions.add(new WorldAction.DeletePodGroup(PodGroups.name(job)));
            podGroupSpec = null;
            podGroupPhase = null;
        }
    }

    @Override
    public void killTarget(Target target, StatusUpdater updater) {
        if (deleted) {
            return;
        }
        resetCounts();
        for (JobPod p : pods.values()) {
            if (p.terminating()) {
                terminating++;
            } else if (target != null && (target.pod() != null ? target.pod().equals(p.name())
                    : Objects.equals(target.task(), p.task()))) {
                deletePod(p, match.action().value());
                terminating++;
            } else {
                classify(p);
            }
        }
        applyUpdater(updater);
    }

    @Override
    public boolean hasLivePods() {
        return pods.size() > pods.tally().terminating();
    }

    // ---------------------------------------------------------------- pods and counts

    private void createPod(JobPod p) {
        TaskSpec t = task(p.task());
        pods.put(p.name(), p);
        actions.add(new WorldAction.CreatePod(p.name(), p.task(), p.index(), p.version(),
                JobPods.create(job, t, p.index(), version, retryCount, PodGroups.name(job), plugins())));
    }

    private void deletePod(JobPod p, String why) {
        pods.put(p.name(), p.markTerminating());
        actions.add(new WorldAction.DeletePod(p.name(), why));
    }

    private void resetCounts() {
        pending = running = succeeded = failed = terminating = unknown = 0;
        taskCounts = new TaskCounts();
    }

    /** Counts every pod: the live ones by phase and task, the others terminating. */
    private void recount() {
        PodTally t = pods.tally();
        pending = t.live(PodPhase.Pending);
        running = t.live(PodPhase.Running);
        succeeded = t.live(PodPhase.Succeeded);
        failed = t.live(PodPhase.Failed);
        unknown = t.live(PodPhase.Unknown);
        terminating = t.terminating();
        taskCounts = t.taskCounts();
        assert countsMatchScan() : "pod tally " + pending + "/" + running + "/" + succeeded + "/" + failed + "/"
                + unknown + "/" + terminating + " differs from the pods " + pods.values();
    }

    /** The counts {@link #recount} took from the tally, against a look at every pod (where assertions are on: the tests). */
    private boolean countsMatchScan() {
        int[] byPhase = new int[PodPhase.values().length];
        int term = 0;
        TaskCounts tasks = new TaskCounts();
        for (JobPod p : pods.values()) {
            if (p.terminating()) {
                term++;
            } else {
                byPhase[p.phase().ordinal()]++;
                tasks.add(p.task(), p.phase());
            }
        }
        return term == terminating && byPhase[PodPhase.Pending.ordinal()] == pending
                && byPhase[PodPhase.Running.ordinal()] == running && byPhase[PodPhase.Succeeded.ordinal()] == succeeded
                && byPhase[PodPhase.Failed.ordinal()] == failed && byPhase[PodPhase.Unknown.ordinal()] == unknown
                && tasks.toStatus().equals(taskCounts.toStatus());
    }

    private void classify(JobPod p) {
        switch (p.phase()) {
            case Pending -> pending++;
            case Running -> running++;
            case Succeeded -> succeeded++;
            case Failed -> failed++;
            case Unknown -> unknown++;
        }
        taskCounts.add(p.task(), p.phase());
    }

    /** A task's pods are created once the tasks it dependsOn have minAvailable pods running or done. */
    private boolean dependenciesReady(TaskSpec t) {
        TaskDependsOn deps = t.dependsOn();
        if (deps == null || deps.namesOrEmpty().isEmpty()) {
            return true;
        }
        boolean any = "any".equalsIgnoreCase(deps.iteration()) && deps.namesOrEmpty().size() > 1;
        for (String dep : deps.namesOrEmpty()) {
            boolean ready = taskReady(dep);
            if (any && ready) {
                return true;
            }
            if (!any && !ready) {
                return false;
            }
        }
        return !any;
    }

    private boolean taskReady(String taskName) {
        TaskSpec dep = task(taskName);
        if (dep == null) {
            return true;
        }
        int needed = dep.minAvailable() != null ? dep.minAvailable() : dep.replicasOrZero();
        PodTally t = pods.tally();
        return t.live(taskName, PodPhase.Running) + t.live(taskName, PodPhase.Succeeded) >= needed;
    }

    /** Volcano's TaskCompleted: as many of the task's pods succeeded as it has replicas. */
    private boolean taskCompleted(String taskName) {
        int replicas = replicas(taskName);
        if (replicas <= 0) {
            return false;
        }
        return pods.tally().succeeded(taskName) >= replicas;
    }

    /** Volcano's TaskFailed: the task's live pods restarted containers more often than its maxRetry. */
    private boolean taskFailed(String taskName) {
        int max = taskMaxRetry(taskName);
        if (replicas(taskName) == 0 || max < 0) {
            return false;
        }
        return taskRestarts(taskName) > max;
    }

    private int taskRestarts(String taskName) {
        return pods.tally().restarts(taskName);
    }

    private int taskMaxRetry(String taskName) {
        TaskSpec t = task(taskName);
        Integer m = t == null ? null : t.maxRetry();
        return m == null || m == 0 ? DEFAULT_MAX_RETRY : m;
    }

    private TaskSpec task(String name) {
        for (TaskSpec t : job.spec().tasksOrEmpty()) {
            if (t.name() != null && t.name().equals(name)) {
                return t;
            }
        }
        return null;
    }

    private int replicas(String taskName) {
        TaskSpec t = task(taskName);
        return t == null ? 0 : t.replicasOrZero();
    }

    private int specMinAvailable() {
        Integer m = job.spec().minAvailable();
        return m != null ? m : job.spec().totalReplicas();
    }

    private int maxRetry() {
        Integer m = job.spec().maxRetry();
        return m == null || m == 0 ? DEFAULT_MAX_RETRY : m;
    }

    // ---------------------------------------------------------------- pod group and plugins

    private List<JobPlugin> plugins() {
        return JobPlugins.of(job.spec().plugins());
    }

    private void createOrUpdatePodGroup() {
        PodGroup pg = specs.podGroup(job);
        if (podGroupSpec == null) {
            podGroupPhase = PodGroupPhase.Pending;
        } else if (podGroupSpec == pg.spec()) {
            return;
        } else if (podGroupSpec.equals(pg.spec())) {
            // The same gang (read back from the store): keep the memo's, so the next sync compares references.
            podGroupSpec = pg.spec();
            return;
        }
        podGroupSpec = pg.spec();
        actions.add(new WorldAction.UpsertPodGroup(new PodGroup(pg.apiVersion(), pg.kind(), pg.metadata(), pg.spec(),
                new PodGroup.PodGroupStatus(podGroupPhase, List.of(), null, null, null))));
    }

    /** Volcano's pluginOnJobUpdate, sending a plugin's ConfigMap only when its data changed. */
    private void refreshPlugins() {
        for (JobPlugin p : plugins()) {
            for (WorldAction a : p.onJobUpdate(job)) {
                emitPluginAction(a);
            }
        }
    }

    private void emitPluginAction(WorldAction a) {
        if (a instanceof WorldAction.CreateConfigMap cm) {
            if (cm.data().equals(configMaps.get(cm.name()))) {
                return;
            }
            ownConfigMaps().put(cm.name(), new TreeMap<>(cm.data()));
        }
        actions.add(a);
    }

    // ---------------------------------------------------------------- status and transitions

    private void applyUpdater(StatusUpdater updater) {
        updater.update(new View());
    }

    private void record(JobPhase to, String why, String detail, boolean retried) {
        JobPhase from = phase;
        phase = to;
        String event = (req == null ? Event.OUT_OF_SYNC : req.event()).value();
        reason = why != null ? why : event;
        message = message(from, detail, retried);
        lastTransitionTime = Instant.ofEpochMilli(now).toString();
        ownConditions().add(new JobStatus.JobCondition(to, lastTransitionTime));
        while (conditions.size() > MAX_CONDITIONS) {
            conditions.remove(0);
        }
        transitions.add(new Transition(from, to, event, match == null ? null : match.action().value(),
                match == null ? null : match.policy(), reason, message, now));
        phaseChanged = true;
        if (to.isFinished() && job.spec().ttlSecondsAfterFinished() != null
                && timers.stream().noneMatch(t -> t instanceof Timer.TtlAfterFinished)) {
            ownTimers().add(new Timer.TtlAfterFinished(now + job.spec().ttlSecondsAfterFinished() * 1000L));
        }
    }

    /** "PodFailed: pod tf-job-worker-2 exited 137 -> RestartJob (spec.policies[0]), retry 2/3". */
    private String message(JobPhase from, String detail, boolean retried) {
        StringBuilder b = new StringBuilder();
        if (req != null && req.cause() != null) {
            b.append(req.event()).append(": ").append(req.cause());
        }
        if (match != null && match.action() != Action.SYNC_JOB) {
            if (!b.isEmpty()) {
                b.append(' ');
            }
            b.append("-> ").append(match.action().value());
            if (match.policy() != null) {
                b.append(" (").append(match.policy()).append(')');
            }
        }
        if (retried) {
            b.append(", retry ").append(retryCount).append('/').append(maxRetry());
        }
        boolean caused = !b.isEmpty();
        if (caused && match.action() != Action.SYNC_JOB) {
            lastCause = b.toString();
        }
        if (detail != null) {
            if (!b.isEmpty()) {
                b.append("; ");
            }
            b.append(detail);
        }
        if (!caused && lastCause != null && from != null && TRANSIENT.contains(from)) {
            // Ending Restarting, Aborting, Completing or Terminating: say what started it.
            b.append(" (after ").append(lastCause).append(')');
        }
        return b.toString();
    }

    private static final Set<JobPhase> TRANSIENT = Set.of(JobPhase.Restarting, JobPhase.Aborting,
            JobPhase.Completing, JobPhase.Terminating);

    /** The status as the phase rules see it during one update. */
    private final class View implements StatusView {

        private boolean retried;

        @Override
        public JobPhase phase() {
            return phase;
        }

        @Override
        public int pending() {
            return pending;
        }

        @Override
        public int running() {
            return running;
        }

        @Override
        public int succeeded() {
            return succeeded;
        }

        @Override
        public int failed() {
            return failed;
        }

        @Override
        public int terminating() {
            return terminating;
        }

        @Override
        public int unknown() {
            return unknown;
        }

        @Override
        public int retryCount() {
            return retryCount;
        }

        @Override
        public void incrementRetry() {
            retryCount++;
            retried = true;
        }

        @Override
        public int minAvailable() {
            return minAvailable;
        }

        @Override
        public int specMinAvailable() {
            return ControllerRun.this.specMinAvailable();
        }

        @Override
        public Integer minSuccess() {
            return job.spec().minSuccess();
        }

        @Override
        public int maxRetry() {
            return ControllerRun.this.maxRetry();
        }

        @Override
        public int totalReplicas() {
            return job.spec().totalReplicas();
        }

        @Override
        public int totalTaskMinAvailable() {
            return job.spec().tasksOrEmpty().stream()
                    .mapToInt(t -> t.minAvailable() != null ? t.minAvailable() : t.replicasOrZero()).sum();
        }

        @Override
        public List<TaskCount> tasks() {
            List<TaskCount> out = new ArrayList<>();
            for (TaskSpec t : job.spec().tasksOrEmpty()) {
                // Volcano only judges a task that has counted pods (TaskStatusCount holds it).
                if (taskCounts().counted(t.name())) {
                    out.add(new TaskCount(t.name(), t.minAvailable(), taskCounts().count(t.name(), PodPhase.Succeeded)));
                }
            }
            return out;
        }

        @Override
        public void moveTo(JobPhase to, String why, String detail) {
            if (!state.targets().contains(to)) {
                throw new IllegalStateException("phase " + state.phase() + " may not lead to " + to);
            }
            record(to, why, detail, retried);
        }
    }

    // ---------------------------------------------------------------- copies on change

    private List<Timer> ownTimers() {
        if (!timersOwned) {
            timers = new ArrayList<>(timers);
            timersOwned = true;
        }
        return timers;
    }

    /** Removes the timers {@code which} matches, copying them only if one does. */
    private void removeTimers(Predicate<Timer> which) {
        for (Timer t : timers) {
            if (which.test(t)) {
                ownTimers().removeIf(which);
                return;
            }
        }
    }

    private Map<String, Map<String, String>> ownConfigMaps() {
        if (!configMapsOwned) {
            configMaps = new TreeMap<>(configMaps);
            configMapsOwned = true;
        }
        return configMaps;
    }

    private Map<String, String> ownResources() {
        if (!resourcesOwned) {
            controlledResources = new TreeMap<>(controlledResources);
            resourcesOwned = true;
        }
        return controlledResources;
    }

    private List<JobStatus.JobCondition> ownConditions() {
        if (!conditionsOwned) {
            conditions = new ArrayList<>(conditions);
            conditionsOwned = true;
        }
        return conditions;
    }

    /** A stored map kept as it is when sorted (the status's maps are, so replay gives them byte for byte). */
    private static Map<String, String> sorted(Map<String, String> map) {
        return map instanceof SortedMap<String, String> s && s.comparator() == null ? map : new TreeMap<>(map);
    }

    // ---------------------------------------------------------------- result

    /** The counts of this run, or the stored ones until it counts the pods itself (most inputs do). */
    private TaskCounts taskCounts() {
        if (taskCounts == null) {
            taskCounts = TaskCounts.of(loadedTaskCounts);
        }
        return taskCounts;
    }

    Outcome outcome() {
        JobInfo info;
        if (job == null) {
            info = JobInfo.empty();
        } else {
            Map<String, JobStatus.TaskState> tsc = taskCounts().toStatus();
            JobStatus status = new JobStatus(new JobState(phase, reason, message, lastTransitionTime), minAvailable,
                    tsc, pending, running, succeeded, failed, terminating, unknown, version, retryCount,
                    runningDuration, resourcesOwned ? new TreeMap<>(controlledResources) : sorted(controlledResources),
                    List.copyOf(conditions));
            info = new JobInfo(job.withStatus(status), pods.freeze(), timers, podGroupSpec, podGroupPhase, configMaps, createdAt,
                    deleted, lastCause);
        }
        return new Outcome(info, List.copyOf(transitions), List.copyOf(actions));
    }
}
