package io.lahar.core.flow;

import io.lahar.core.api.Flow;
import io.lahar.core.api.Job;
import io.lahar.core.api.JobFlow;
import io.lahar.core.api.JobFlowPhase;
import io.lahar.core.api.JobPhase;
import io.lahar.core.api.JobSpec;
import io.lahar.core.api.JobTemplate;
import io.lahar.core.api.ManifestException;
import io.lahar.core.api.ObjectMeta;
import io.lahar.core.api.OwnerReference;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * One application of an input to a flow: a mutable working copy of the {@link FlowInfo} and the
 * operations the phase states combine (Volcano's syncJobFlow: deploy jobs whose dependencies
 * hold, fold job status, decide the phase). Collects transitions, actions and events.
 */
public final class FlowRun {

    /** Volcano's label and annotation on a created job: {@code <namespace>.<template>}. */
    public static final String CREATED_BY_JOB_TEMPLATE = "volcano.sh/createdByJobTemplate";
    /** Which flow made the job: {@code <namespace>.<jobflow>}. */
    public static final String CREATED_BY_JOB_FLOW = "volcano.sh/createdByJobFlow";

    /** Job phases Volcano never leaves: a late or duplicated status must not reopen them. */
    private static final Set<JobPhase> FINAL = EnumSet.of(JobPhase.Completed, JobPhase.Failed, JobPhase.Terminated);

    private JobFlow flow;
    private final Map<String, JobTemplate> templates;
    private JobFlowPhase phase;
    private long phaseTime;
    private final LinkedHashMap<String, FlowJob> jobs;
    private boolean deleted;
    private final long time;

    private final List<FlowTransition> transitions = new ArrayList<>();
    private final List<FlowAction> actions = new ArrayList<>();
    private final List<FlowEvent> events = new ArrayList<>();

    public FlowRun(FlowInfo state, long inputTime) {
        this.flow = state.flow();
        this.templates = new TreeMap<>(state.templates());
        this.phase = state.phase();
        this.phaseTime = state.phaseTime();
        this.jobs = new LinkedHashMap<>(state.jobs());
        this.deleted = state.deleted();
        // Time never runs backwards inside a flow: a late record is applied at the flow's time.
        this.time = Math.max(state.time(), inputTime);
    }

    public JobFlowPhase phase() {
        return phase;
    }

    public long time() {
        return time;
    }

    public FlowOutcome outcome() {
        FlowInfo state = new FlowInfo(flow, templates, phase, phaseTime, new LinkedHashMap<>(jobs), deleted, time);
        return new FlowOutcome(state, List.copyOf(transitions), List.copyOf(actions), List.copyOf(events));
    }

    /** The flow is created: one waiting entry per flow, Pending. */
    public void submit(FlowInput.Submit s) {
        if (flow != null) {
            return;
        }
        flow = s.flow();
        for (Flow f : flow.spec().flowsOrEmpty()) {
            if (f != null && f.name() != null && !jobs.containsKey(f.name())) {
                jobs.put(f.name(), FlowJob.waiting(f.name(), jobName(f.name())));
            }
        }
        s.templates().forEach(this::keepTemplate);
        moveTo(JobFlowPhase.Pending, "Created", "jobflow " + flow.name() + " created with " + jobs.size() + " flows");
    }

    /** A template changed: jobs not created yet will use it; created ones keep their spec (seed 001). */
    public void changeTemplate(FlowInput.TemplateChanged c) {
        keepTemplate(c.template());
    }

    /** Only the templates of this flow's entries are kept: the state stays bounded by the flow's size. */
    private void keepTemplate(JobTemplate t) {
        if (t != null && jobs.containsKey(t.name())) {
            templates.put(t.name(), t);
        }
    }

    /**
     * Folds a job's reported status into its entry. With {@code mayRetry}, a Failed job whose
     * entry has retries left is deleted and scheduled for re-creation after its backoff.
     */
    public void observe(FlowInput.JobStatusObserved o, boolean mayRetry) {
        FlowJob j = byJobName(o.job());
        if (j == null
                || j.state() != EntryState.Created
                || !j.exists()
                || (j.phase() != null && FINAL.contains(j.phase()))) {
            return;
        }
        FlowJob updated = j.observed(o, time);
        jobs.put(j.entry(), updated);
        if (mayRetry && o.phase() == JobPhase.Failed) {
            retryIfLeft(updated);
        }
    }

    /** A failed job whose entry has retries left is scheduled for re-creation. */
    private void retryIfLeft(FlowJob failed) {
        Flow entry = entry(failed.entry());
        if (entry != null && failed.retries() < Backoffs.maxRetries(entry.retry())) {
            scheduleRetry(failed, entry);
        }
    }

    private void scheduleRetry(FlowJob j, Flow entry) {
        long delay = Backoffs.delayMillis(entry.retry(), j.retries());
        if (j.exists()) {
            // A job that admission rejected was never created: there is nothing to delete.
            actions.add(new FlowAction.DeleteJob(j.name(), "Retry"));
        }
        events.add(new FlowEvent(
                "Retrying",
                "job " + j.name() + " failed: retry " + (j.retries() + 1) + " of " + Backoffs.maxRetries(entry.retry())
                        + " in " + FlowJobs.goDuration(delay),
                time));
        jobs.put(j.entry(), j.backoff(time + delay, time));
    }

    /**
     * Job admission refused to create the job (its queue is missing or closed, the patched spec is
     * invalid, ...): the job counts as Failed, with every reason kept for the flow's condition, so
     * {@code retry} applies and otherwise the flow fails as it would when the job failed. Only a
     * job created and not observed since can be rejected: a job that reported a status exists, and
     * the rejection is a stale echo.
     */
    public void reject(FlowInput.JobRejected r, boolean mayRetry) {
        FlowJob j = byJobName(r.job());
        if (j == null || j.state() != EntryState.Created || !j.exists() || j.phase() != null) {
            return;
        }
        String message = "job admission rejected the job: " + String.join("; ", r.reasons());
        events.add(new FlowEvent("JobRejected", "job " + j.name() + ": " + message, time));
        FlowJob failed = j.rejected(message, time);
        jobs.put(j.entry(), failed);
        if (mayRetry) {
            retryIfLeft(failed);
        }
    }

    /**
     * Volcano's deployJob, plus Lahar's retry timers and skips: re-create the jobs whose backoff
     * has ended, then create every waiting job whose dependencies hold and skip those whose
     * dependencies never will, until nothing changes (a skip can unblock or skip another entry).
     */
    public void sync() {
        for (FlowJob j : List.copyOf(jobs.values())) {
            if (j.state() == EntryState.Backoff && j.retryAt() != null && j.retryAt() <= time) {
                recreate(j);
            }
        }
        boolean changed = true;
        while (changed) {
            changed = false;
            for (Flow f : flow.spec().flowsOrEmpty()) {
                FlowJob j = f == null ? null : jobs.get(f.name());
                if (j == null || j.state() != EntryState.Waiting) {
                    continue;
                }
                switch (Dependencies.judge(f, jobs)) {
                    case RUN -> changed |= create(f, j);
                    case SKIP -> {
                        jobs.put(j.entry(), j.skipped());
                        events.add(new FlowEvent(
                                "Skipped",
                                "flow " + f.name() + " skipped: its dependencies "
                                        + f.dependsOn().targetsOrEmpty() + " can no longer hold"
                                        + (f.when() == null ? "" : " (when " + Dependencies.wanted(f) + ")"),
                                time));
                        changed = true;
                    }
                    case WAIT -> {}
                }
            }
        }
    }

    private boolean create(Flow f, FlowJob j) {
        JobTemplate template = templates.get(f.name());
        if (template == null || template.spec() == null) {
            block(
                    j,
                    "TemplateNotFound",
                    "flow " + f.name() + ": JobTemplate " + f.name()
                            + " not found; the job is created when it appears");
            return false;
        }
        JobSpec spec;
        try {
            spec = JobPatches.apply(template.spec(), f.patch());
        } catch (ManifestException e) {
            // Admission checks the patch's shape, not every type; a patch that breaks the spec
            // leaves the entry waiting, with the reason, rather than creating a wrong job.
            block(j, "PatchFailed", "flow " + f.name() + ": " + e.getMessage());
            return false;
        }
        Job job = new Job(Job.API_VERSION, Job.KIND, jobMeta(f.name()), spec, null);
        actions.add(new FlowAction.CreateJob(job));
        events.add(new FlowEvent("Created", "create a job named " + j.name(), time));
        jobs.put(j.entry(), j.created(job, time));
        return true;
    }

    /** The entry stays waiting; the reason is told once, when it first blocks, not on every sync. */
    private void block(FlowJob j, String reason, String message) {
        if (!j.blocked()) {
            events.add(new FlowEvent(reason, message, time));
            jobs.put(j.entry(), j.block());
        }
    }

    private void recreate(FlowJob j) {
        actions.add(new FlowAction.CreateJob(j.job()));
        events.add(
                new FlowEvent("Created", "re-create the job named " + j.name() + " (retry " + j.retries() + ")", time));
        jobs.put(j.entry(), j.recreated(time));
    }

    private ObjectMeta jobMeta(String template) {
        String ns = flow.metadata().namespace();
        String prefix = (ns == null || ns.isEmpty() ? "default" : ns) + ".";
        Map<String, String> marks = new LinkedHashMap<>();
        marks.put(CREATED_BY_JOB_TEMPLATE, prefix + template);
        marks.put(CREATED_BY_JOB_FLOW, prefix + flow.name());
        OwnerReference owner = new OwnerReference(
                JobFlow.API_VERSION, JobFlow.KIND, flow.name(), flow.metadata().uid(), true, true);
        return ObjectMeta.named(ns, jobName(template))
                .withLabels(marks)
                .withAnnotations(new LinkedHashMap<>(marks))
                .withOwnerReferences(List.of(owner));
    }

    /**
     * Whether the flow is done, and how. As the seed's running state decides: Failed as soon as
     * one job is Failed or Terminated, whatever the others still do, and Succeed once every job
     * completed. Lahar's extensions come first: a failed job with retries left is in its backoff,
     * not Failed; a failure a {@code when} branch handles is an outcome, not a failure. A job in
     * any other phase (Aborted, Restarting, ...) keeps the flow going.
     */
    public FlowProgress progress() {
        boolean active = false;
        for (FlowJob j : jobs.values()) {
            switch (j.state()) {
                case Waiting, Backoff -> active = true;
                case Created -> {
                    if (j.endedUnsuccessfully()
                            && !Dependencies.handled(j, flow.spec().flowsOrEmpty())) {
                        return FlowProgress.FAILED;
                    }
                    active |= !j.ended();
                }
                case Skipped -> {}
            }
        }
        return active ? FlowProgress.ACTIVE : FlowProgress.SUCCEEDED;
    }

    /** Volcano's Pending → Running: some job has left Pending (it runs, or already finished). */
    public boolean started() {
        return jobs.values().stream().anyMatch(j -> j.phase() != null && j.phase() != JobPhase.Pending);
    }

    /** A failed job, for the message of a Failed transition. */
    public List<String> unhandledFailures() {
        return jobs.values().stream()
                .filter(j -> j.endedUnsuccessfully()
                        && !Dependencies.handled(j, flow.spec().flowsOrEmpty()))
                .map(j -> j.name() + " " + j.phase() + (j.message() == null ? "" : " (" + j.message() + ")"))
                .toList();
    }

    public boolean retainsJobs() {
        return !JobFlow.JobFlowSpec.DELETE.equals(flow.spec().jobRetainPolicy());
    }

    /** Deletes every job of the flow that still exists (jobRetainPolicy delete, or the flow deleted). */
    public void deleteJobs(String reason) {
        for (FlowJob j : List.copyOf(jobs.values())) {
            if (j.exists()) {
                actions.add(new FlowAction.DeleteJob(j.name(), reason));
                jobs.put(j.entry(), j.deleted(time));
            }
        }
    }

    /** The flow is deleted: its jobs go with it (Volcano's owner references), pending retries are dropped. */
    public void terminate() {
        deleteJobs("JobFlowDeleted");
        for (FlowJob j : List.copyOf(jobs.values())) {
            if (j.state() == EntryState.Backoff) {
                jobs.put(j.entry(), j.retryDropped());
            }
        }
        deleted = true;
        moveTo(JobFlowPhase.Terminating, "Deleted", "jobflow deleted: its jobs are deleted with it");
    }

    public void moveTo(JobFlowPhase to, String reason, String message) {
        if (to == phase) {
            return;
        }
        transitions.add(new FlowTransition(phase, to, reason, message, time));
        phase = to;
        phaseTime = time;
    }

    private Flow entry(String name) {
        return flow.spec().flowsOrEmpty().stream()
                .filter(f -> f != null && name.equals(f.name()))
                .findFirst()
                .orElse(null);
    }

    private FlowJob byJobName(String name) {
        return jobs.values().stream()
                .filter(j -> j.name().equals(name))
                .findFirst()
                .orElse(null);
    }

    private String jobName(String template) {
        return flow.name() + "-" + template;
    }
}
