package io.lahar.core.job;

import io.lahar.core.api.Action;
import io.lahar.core.api.Event;
import io.lahar.core.api.GoDuration;
import io.lahar.core.api.Job;
import io.lahar.core.api.JobPhase;
import io.lahar.core.api.JobSpec;
import io.lahar.core.api.PodGroup;
import io.lahar.core.api.PodGroupPhase;
import io.lahar.core.api.TaskSpec;
import io.lahar.core.job.plugins.JobPluginRegistry;
import io.lahar.core.job.state.JobActions;
import io.lahar.core.job.state.PhaseState;
import io.lahar.core.job.state.RetainPhases;
import io.lahar.core.job.state.StateAction;
import io.lahar.core.job.state.StatusUpdater;
import io.lahar.core.job.state.Target;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * One application of an input to a job (Volcano's job_controller and job_controller_actions):
 * the input becomes a request, the policies pick its action, and the current phase's state
 * executes it through {@link JobActions}; {@link #outcome()} freezes the result. What a pod's news
 * means is {@link PodRequests}; the timers are {@link DelayedActions}; the status and its
 * transitions {@link RunStatus}; the plugins' hooks {@link PluginCalls}; the questions about
 * tasks {@link TaskChecks}.
 */
final class ControllerRun implements JobActions, StatusUpdate.Mover {

    /** A phase change is followed by a sync, as Volcano's job-update event follows its status write. */
    private static final int MAX_FOLLOW_UPS = 16;

    private final long now;
    private final SpecMemo specs;
    private Job job;
    private long createdAt;
    private boolean deleted;

    private final RunStatus status;
    private final FrozenPods.Builder pods;
    private final DelayedActions timers;
    private final PluginCalls plugins;
    private PodGroup.PodGroupSpec podGroupSpec;
    private PodGroupPhase podGroupPhase;
    private final List<WorldAction> actions = new ArrayList<>();

    // What is being executed right now: for the transition records, the moves allowed and the version bump.
    private Request req;
    private PolicyMatch match;
    private PhaseState state;
    private boolean bumpVersion;
    private boolean phaseChanged;

    ControllerRun(JobInfo info, long now, SpecMemo specs, JobPluginRegistry registry) {
        this.now = now;
        this.specs = specs;
        this.job = info.job();
        this.createdAt = info.createdAt();
        this.deleted = info.deleted();
        this.status = new RunStatus(job == null ? null : job.status(), info.lastCause());
        this.pods = FrozenPods.copyOf(info.pods()).builder();
        this.timers = new DelayedActions(info.timers());
        this.plugins = new PluginCalls(registry, info.configMaps());
        this.podGroupSpec = info.podGroupSpec();
        this.podGroupPhase = info.podGroupPhase();
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
            case Input.Command c ->
                process(Request.command(
                        c.action(),
                        c.task(),
                        c.pod(),
                        status.version(),
                        "command " + c.action().value() + targetText(c.task(), c.pod()) + messageText(c.message())));
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

    /** The sender's reason, as the job command's schema promises it to the transition. */
    private static String messageText(String message) {
        return message == null || message.isBlank() ? "" : ": " + message;
    }

    private void submit(Job submitted) {
        this.job = submitted.withStatus(null);
        this.createdAt = now;
        this.deleted = false;
        pods.clear();
        timers.clear();
        plugins.clear();
        podGroupSpec = null;
        podGroupPhase = null;
        status.restart(TaskChecks.minAvailable(job.spec()));
        req = Request.sync(0);
        match = PolicyMatch.sync();
        JobSpec spec = job.spec();
        move(
                JobPhase.Pending,
                "Created",
                "job created: " + spec.tasksOrEmpty().size() + " task(s), "
                        + spec.totalReplicas() + " pod(s), minAvailable " + TaskChecks.minAvailable(spec) + ", queue "
                        + (spec.queue() == null ? "default" : spec.queue()),
                false);
        initiateJob();
        process(Request.sync(status.version()));
    }

    /**
     * Volcano's initiateJob: each plugin's objects unless it already owns them (a kill gives them
     * back, so a restarted job gets them anew), the job's volumes, then the pod group.
     */
    private void initiateJob() {
        plugins.onJobAdd(job, status, actions);
        VolumeClaims.create(job, status, actions);
        createOrUpdatePodGroup();
    }

    private void update(Job updated) {
        Job previous = job;
        this.job = updated.withStatus(null)
                .withMetadata(updated.metadata() == null ? previous.metadata() : updated.metadata());
        process(Request.job(
                Event.JOB_UPDATED,
                status.version(),
                "job spec updated (minAvailable " + TaskChecks.minAvailable(job.spec()) + ", "
                        + job.spec().totalReplicas() + " pod(s))"));
    }

    private void podObserved(Input.PodObserved p) {
        JobPod old = pods.get(p.pod());
        if (old != null && p.version() < old.version()) {
            // News of an earlier pod of that name, replaced since: it says nothing about this one.
            return;
        }
        if (p.deleted()) {
            if (old != null) {
                pods.remove(p.pod());
                process(PodRequests.deleted(old));
            }
            return;
        }
        JobPod base = old != null
                ? old
                : new JobPod(p.pod(), p.task(), p.index(), p.version(), p.phase(), null, 0, false, false);
        JobPod observed = base.withPhase(
                p.phase(), p.phase() == PodPhase.Failed ? p.exitCode() : null, p.restartCount(), p.node());
        pods.put(observed.name(), observed);
        process(PodRequests.observed(old, observed, job.spec(), pods.tally()));
    }

    private void podGroupObserved(Input.PodGroupObserved g) {
        if (podGroupSpec == null) {
            // The engine deleted that pod group; news about it changes nothing.
            return;
        }
        PodGroupPhase old = podGroupPhase;
        podGroupPhase = g.phase();
        PendingReason.explain(job, status, g, old);
        if (old == g.phase()) {
            return;
        }
        if (g.phase() == PodGroupPhase.Unknown) {
            process(Request.job(
                    Event.JOB_UNKNOWN,
                    status.version(),
                    "pod group " + PodGroups.name(job)
                            + " is Unknown: part of the gang cannot be scheduled while some pods run"));
        } else {
            process(Request.sync(status.version()));
        }
    }

    // ---------------------------------------------------------------- requests and timers

    /** Volcano's processNextReq: cancel what the request makes moot, resolve the policies, execute or delay. */
    private void process(Request r) {
        timers.cancelMoot(r);
        PolicyMatch m = Policies.resolve(job.spec(), r, status.version());
        if (m.delayed()) {
            timers.arm(r, m, now, status.version());
            // Volcano leaves the status as it was until the action runs; the counts are refreshed here
            // so the status describes the pods the event was about.
            status.counts().recount(pods);
            return;
        }
        executeAndFollow(m, r);
    }

    /** Executes the action, cancels the delayed actions it makes moot, and syncs after each phase change. */
    private void executeAndFollow(PolicyMatch m, Request r) {
        execute(m, r);
        timers.cleanup(m.action(), r.task(), r.pod(), pod -> KillTargets.partitionOf(job.spec(), pods.get(pod)));
        for (int i = 0; phaseChanged && i < MAX_FOLLOW_UPS && !deleted; i++) {
            phaseChanged = false;
            execute(PolicyMatch.sync(), Request.sync(status.version()));
        }
        phaseChanged = false;
    }

    private void execute(PolicyMatch m, Request r) {
        this.req = r;
        this.match = m;
        this.bumpVersion = m.action() != Action.SYNC_JOB;
        Target target = KillTargets.of(m.action(), r.task(), r.pod(), job.spec(), pods);
        this.state = PhaseState.of(status.phase());
        state.execute(new StateAction(m.action(), target), this);
    }

    private void fireDueTimers() {
        for (int guard = 0; guard < 1000 && !deleted; guard++) {
            Timer t = timers.takeDue(now);
            if (t == null) {
                return;
            }
            switch (t) {
                case Timer.TtlAfterFinished ttl ->
                    deleteJob("ttlSecondsAfterFinished " + job.spec().ttlSecondsAfterFinished() + " expired");
                case Timer.DelayedAction d -> {
                    if (DelayedActions.stillApplies(d, status.version(), pods.get(d.pod()))) {
                        executeAndFollow(new PolicyMatch(d.action(), Duration.ZERO, d.policy()), Request.fired(d));
                    }
                }
            }
        }
    }

    /** The job object is gone (deleted, or its TTL expired): so is everything it owned. */
    private void deleteJob(String ttlReason) {
        for (JobPod p : pods.values()) {
            if (!p.terminating()) {
                deletePod(p, "job deleted");
            }
        }
        deletePodGroup();
        plugins.onJobDelete(job, status, actions);
        VolumeClaims.delete(status, actions);
        if (ttlReason != null) {
            actions.add(new WorldAction.DeleteJob(ttlReason));
        }
        timers.clear();
        deleted = true;
    }

    // ---------------------------------------------------------------- JobActions

    @Override
    public void syncJob(StatusUpdater updater) {
        if (deleted) {
            return;
        }
        if (status.phase() == JobPhase.Pending) {
            // Volcano initiates a job until it leaves Pending: plugins released by a kill come back.
            initiateJob();
        } else {
            plugins.onJobUpdate(job, actions);
            createOrUpdatePodGroup();
        }
        // Pods are created only once the scheduler admitted the gang (pod group past Pending).
        boolean syncTask = podGroupPhase != null && podGroupPhase != PodGroupPhase.Pending;
        if (!syncTask) {
            update(updater);
            return;
        }
        Set<String> specNames = specs.podNameSet(job);
        PodCounts counts = status.counts();
        if (pods.size() == specNames.size()
                && pods.inSpec(specNames) == specNames.size()
                && !pods.tally().unfinishedBefore(status.version())) {
            // Every pod of the spec is there, none outside it, none of an older run alive: the
            // scan below would create and delete nothing, and count what the tally counts.
            counts.recount(pods);
            status.minAvailable(TaskChecks.minAvailable(job.spec()));
            update(updater);
            return;
        }
        counts.reset();
        List<TaskSpec> tasks = job.spec().tasksOrEmpty();
        List<JobPod> toCreate = new ArrayList<>();
        // The spec's pod names are distinct (a name ends in -<index>, task names are DNS labels):
        // when as many of them are known as there are pods, no pod is left outside the spec.
        int known = 0;
        String[][] names = specs.podNames(job);
        int version = status.version();
        for (int ti = 0; ti < tasks.size(); ti++) {
            TaskSpec t = tasks.get(ti);
            boolean ready = TaskChecks.dependenciesReady(job.spec(), pods.tally(), t);
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
                    counts.countTerminating();
                } else if (p.version() < version && !p.phase().isTerminal()) {
                    // A live pod of a run the job left behind must not run beside the new one.
                    deletePod(p, "pod of job version " + p.version() + ", job is at version " + version);
                    counts.countTerminating();
                } else {
                    counts.count(p);
                }
            }
        }
        int outside = pods.size() - known;
        for (JobPod p : toCreate) {
            createPod(p);
            counts.count(p);
        }
        if (outside > 0) {
            deleteOutsideSpec(specNames);
        }
        status.minAvailable(TaskChecks.minAvailable(job.spec()));
        update(updater);
    }

    /** Volcano's syncJob deletes the pods no task of the spec has a place for (a scale down), and counts them terminating. */
    private void deleteOutsideSpec(Set<String> expected) {
        for (JobPod p : pods.values()) {
            if (!expected.contains(p.name())) {
                if (!p.terminating()) {
                    deletePod(
                            p,
                            "scaled down: task " + p.task() + " has " + TaskChecks.replicas(job.spec(), p.task())
                                    + " replica(s)");
                }
                status.counts().countTerminating();
            }
        }
    }

    @Override
    public void killJob(RetainPhases retain, StatusUpdater updater) {
        if (deleted) {
            return;
        }
        // At the last retry the finished pods are kept whatever the action, to show why it failed.
        RetainPhases kept = status.retryCount() >= TaskChecks.maxRetry(job.spec()) - 1 ? RetainPhases.SOFT : retain;
        String why = match.action() == Action.SYNC_JOB
                ? "job " + status.phase()
                : match.action().value();
        killPods(p -> !kept.retains(p.phase()), why);
        if (bumpVersion) {
            // Once per killing action, not per kill as in Volcano (see package-info).
            status.bumpVersion();
            bumpVersion = false;
        }
        status.runningDuration(GoDuration.format(now - createdAt));
        update(updater);
        plugins.onJobDelete(job, status, actions);
        // Volcano deletes the pod group on a kill, so a restarted gang queues afresh.
        deletePodGroup();
    }

    @Override
    public void killTarget(Target target, StatusUpdater updater) {
        if (deleted) {
            return;
        }
        if (match.action() == Action.RESTART_PARTITION && KillTargets.nothingToRestart(target, job.spec(), pods)) {
            return;
        }
        killPods(KillTargets.pods(target, job.spec()), match.action().value());
        update(updater);
    }

    /** Deletes the pods {@code which} selects among those not being deleted, and counts every pod. */
    private void killPods(java.util.function.Predicate<JobPod> which, String why) {
        PodCounts counts = status.counts();
        counts.reset();
        for (JobPod p : pods.values()) {
            if (p.terminating()) {
                counts.countTerminating();
            } else if (which.test(p)) {
                deletePod(p, why);
                counts.countTerminating();
            } else {
                counts.count(p);
            }
        }
    }

    @Override
    public boolean hasLivePods() {
        return pods.size() > pods.tally().terminating();
    }

    // ---------------------------------------------------------------- the world

    private void createPod(JobPod p) {
        TaskSpec t = TaskChecks.task(job.spec(), p.task());
        pods.put(p.name(), p);
        actions.add(new WorldAction.CreatePod(
                p.name(),
                p.task(),
                p.index(),
                p.version(),
                JobPods.create(
                        job,
                        t,
                        p.index(),
                        status.version(),
                        status.retryCount(),
                        PodGroups.name(job),
                        plugins.of(job))));
    }

    private void deletePod(JobPod p, String why) {
        pods.put(p.name(), p.markTerminating());
        actions.add(new WorldAction.DeletePod(p.name(), why));
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
        actions.add(new WorldAction.UpsertPodGroup(new PodGroup(
                pg.apiVersion(),
                pg.kind(),
                pg.metadata(),
                pg.spec(),
                new PodGroup.PodGroupStatus(podGroupPhase, List.of(), null, null, null))));
    }

    private void deletePodGroup() {
        if (podGroupSpec != null) {
            actions.add(new WorldAction.DeletePodGroup(PodGroups.name(job)));
            podGroupSpec = null;
            podGroupPhase = null;
        }
    }

    // ---------------------------------------------------------------- status

    private void update(StatusUpdater updater) {
        updater.update(new StatusUpdate(status, job.spec(), state, this));
    }

    @Override
    public void move(JobPhase to, String why, String detail, boolean retried) {
        status.record(to, why, detail, retried, req, match, now, TaskChecks.maxRetry(job.spec()));
        phaseChanged = true;
        if (to.isFinished() && job.spec().ttlSecondsAfterFinished() != null) {
            timers.armTtl(now + job.spec().ttlSecondsAfterFinished() * 1000L);
        }
    }

    Outcome outcome() {
        if (job != null && !deleted && status.phase() == JobPhase.Running) {
            // Volcano writes runningDuration only when it kills the job; a running job shows it too,
            // as of the record that last touched it (time comes from records, never a clock).
            status.runningDuration(GoDuration.format(now - createdAt));
        }
        JobInfo info = job == null
                ? JobInfo.empty()
                : new JobInfo(
                        job.withStatus(status.toStatus()),
                        pods.freeze(),
                        timers.timers(),
                        podGroupSpec,
                        podGroupPhase,
                        plugins.configMaps(),
                        createdAt,
                        deleted,
                        status.lastCause());
        return new Outcome(info, List.copyOf(status.transitions()), List.copyOf(actions));
    }
}
