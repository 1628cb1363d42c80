package io.lahar.core.cron;

import io.lahar.core.api.ConcurrencyPolicy;
import io.lahar.core.api.CronJob;
import io.lahar.core.api.Job;
import io.lahar.core.api.JobPhase;
import io.lahar.core.api.Timestamps;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * One application of an input to a CronJob: a mutable working copy of its {@link CronJobInfo}
 * and Volcano's syncCronJob on it (cronjob_controller.go and its handler and util files), with
 * the events Volcano records. Collects the actions and events.
 */
final class CronSync {

    /**
     * Lahar's bound on the active jobs of one CronJob (Allow lets runs pile up while none
     * finishes): past it a scheduled time is skipped with a TooManyActiveJobs event.
     */
    static final int MAX_ACTIVE = 100;

    private CronJob cronJob;
    private long createdAt;
    private final List<String> active;
    private Long lastScheduleTime;
    private Long lastSuccessfulTime;
    private final List<OwnedJob> jobs;
    private final List<CronEvent> recent;
    private Long due;
    private boolean deleted;
    private final long now;

    private final List<CronAction> actions = new ArrayList<>();
    private final List<CronEvent> events = new ArrayList<>();
    private String error;

    CronSync(CronJobInfo state, long inputTime) {
        this.cronJob = state.cronJob();
        this.createdAt = state.createdAt();
        this.active = new ArrayList<>(state.active());
        this.lastScheduleTime = state.lastScheduleTime();
        this.lastSuccessfulTime = state.lastSuccessfulTime();
        this.jobs = new ArrayList<>(state.jobs());
        this.recent = new ArrayList<>(state.events());
        this.due = state.due();
        this.deleted = state.deleted();
        // Time never runs backwards for a CronJob: a late record is applied at the CronJob's time.
        this.now = Math.max(state.time(), inputTime);
    }

    CronOutcome outcome() {
        List<CronEvent> kept = new ArrayList<>(recent);
        kept.addAll(events);
        if (kept.size() > CronJobInfo.MAX_EVENTS) {
            kept = kept.subList(kept.size() - CronJobInfo.MAX_EVENTS, kept.size());
        }
        CronJobInfo state = new CronJobInfo(
                cronJob, createdAt, active, lastScheduleTime, lastSuccessfulTime, jobs, kept, due, deleted, now);
        return new CronOutcome(state, List.copyOf(actions), List.copyOf(events), error);
    }

    // ---- inputs ---------------------------------------------------------------------------------

    /** A new CronJob: its creation time is its metadata's (stamped on create), else the input's. */
    void submit(CronJob c) {
        cronJob = c;
        String stamped = c.metadata().creationTimestamp();
        createdAt = stamped == null ? now : Timestamps.parse(stamped).toEpochMilli();
        active.clear();
        jobs.clear();
        recent.clear();
        lastScheduleTime = null;
        lastSuccessfulTime = null;
        deleted = false;
    }

    /** The spec changes; who the CronJob is and when it was made stay. */
    void update(CronJob c) {
        cronJob = c.withMetadata(cronJob.metadata());
    }

    /** Every job it owns is deleted with it (Kubernetes' garbage collector follows the owner references). */
    void delete() {
        for (OwnedJob j : jobs) {
            actions.add(new CronAction.DeleteJob(j.name(), "the CronJob was deleted"));
        }
        jobs.clear();
        active.clear();
        deleted = true;
        due = null;
    }

    /** A job's status: terminal phases are final, and a job it does not know (deleted since) stays unknown. */
    void observe(CronInput.JobObserved o) {
        int i = indexOf(o.job());
        if (i < 0 || jobs.get(i).finished()) {
            return;
        }
        jobs.set(i, jobs.get(i).observed(o.phase(), o.lastTransitionTime(), o.uid(), now));
    }

    /** Job admission refused the job: it never existed; the refusal is an event (Volcano's FailedCreate). */
    void reject(CronInput.JobRejected r) {
        int i = indexOf(r.job());
        if (i < 0 || jobs.get(i).phase() != null) {
            return; // a job that reported a status exists: the refusal is a stale echo
        }
        jobs.remove(i);
        active.remove(r.job());
        event(
                CronEvent.WARNING,
                "FailedCreate",
                "Error creating job " + r.job() + ": " + String.join("; ", r.reasons()));
    }

    /** A job is gone: it leaves the jobs; if it was active, the sync reports the stale reference. */
    void gone(CronInput.JobGone g) {
        int i = indexOf(g.job());
        if (i >= 0) {
            jobs.remove(i);
        }
    }

    // ---- Volcano's syncCronJob ----------------------------------------------------------------

    void sync() {
        processFinishedJobs();
        processStaleActive();
        if (cronJob.spec().suspended()) {
            due = null;
            return;
        }
        Schedule schedule = validateTimeZoneAndSchedule();
        if (schedule == null) {
            due = null;
            return;
        }
        CronJob.CronJobSpec spec = cronJob.spec();
        ScheduleTimes.Recent recentTimes = ScheduleTimes.mostRecent(
                schedule, createdAt, lastScheduleTime, spec.startingDeadlineSeconds(), now, true);
        Long scheduled =
                recentTimes.mostRecent() != null && recentTimes.mostRecent() <= now ? recentTimes.mostRecent() : null;
        if (scheduled == null && recentTimes.error() != null) {
            event(CronEvent.WARNING, "InvalidSchedule", "Error getting schedule time: " + recentTimes.error());
            error = recentTimes.error();
            due = null;
            return;
        }
        if (scheduled != null && recentTimes.missed() == ScheduleTimes.Missed.MANY) {
            event(
                    CronEvent.WARNING,
                    "TooManyMissedTimes",
                    "too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew");
        }
        if (scheduled == null) {
            requeue(schedule);
            return;
        }
        String name = CronJobs.jobName(cronJob.name(), scheduled);
        if (active.contains(name) || scheduled.equals(lastScheduleTime)) {
            requeue(schedule); // this scheduled time is already processed
            return;
        }
        if (!processConcurrencyPolicy()) {
            requeue(schedule);
            return;
        }
        createJob(name, scheduled);
        requeue(schedule);
    }

    /**
     * Finished jobs leave the active list (SawCompletedJob); a completed one moves
     * lastSuccessfulTime; the oldest beyond the history limits are deleted. Terminated jobs count
     * as failed: Volcano counts them in neither list and so never deletes them.
     */
    private void processFinishedJobs() {
        List<OwnedJob> successful = new ArrayList<>();
        List<OwnedJob> failed = new ArrayList<>();
        for (OwnedJob j : jobs) {
            if (!j.finished()) {
                continue;
            }
            if (active.remove(j.name())) {
                event(CronEvent.NORMAL, "SawCompletedJob", "Saw completed job: " + j.name() + " in active, remove");
            }
            if (j.phase() == JobPhase.Completed) {
                if (j.finishedAt() != null && (lastSuccessfulTime == null || j.finishedAt() > lastSuccessfulTime)) {
                    lastSuccessfulTime = j.finishedAt();
                }
                successful.add(j);
            } else {
                failed.add(j);
            }
        }
        CronJob.CronJobSpec spec = cronJob.spec();
        if (spec.successfulJobsHistoryLimit() != null) {
            removeOldestJobs(successful, spec.successfulJobsHistoryLimit());
        }
        if (spec.failedJobsHistoryLimit() != null) {
            removeOldestJobs(failed, spec.failedJobsHistoryLimit());
        }
    }

    private void removeOldestJobs(List<OwnedJob> finished, int limit) {
        int toDelete = finished.size() - limit;
        if (toDelete <= 0) {
            return;
        }
        List<OwnedJob> oldestFirst = new ArrayList<>(finished);
        oldestFirst.sort(Comparator.comparingLong(OwnedJob::createdAt).thenComparing(OwnedJob::name));
        for (int i = 0; i < toDelete; i++) {
            deleteJob(oldestFirst.get(i).name(), "history limit");
        }
    }

    /** An active job that no longer exists leaves the list (Volcano's StaleReference). */
    private void processStaleActive() {
        for (String name : List.copyOf(active)) {
            if (indexOf(name) < 0) {
                event(CronEvent.WARNING, "StaleReference", "Active job \"" + name + "\" no longer exists");
                active.remove(name);
            }
        }
    }

    /**
     * Volcano's validateTZandSchedule and formatSchedule: the time zone must exist; a schedule
     * with its own TZ prefix wins over it (with a warning); null, with the error, when either is bad.
     */
    private Schedule validateTimeZoneAndSchedule() {
        CronJob.CronJobSpec spec = cronJob.spec();
        if (spec.timeZone() != null && Zones.load(spec.timeZone()).isEmpty()) {
            error = "unknown time zone " + spec.timeZone();
            event(CronEvent.WARNING, "InvalidTimeZone", "Invalid time zone \"" + spec.timeZone() + "\": " + error);
            return null;
        }
        String schedule = spec.schedule() == null ? "" : spec.schedule();
        ZoneId local = ZoneOffset.UTC;
        if (schedule.contains("TZ")) {
            event(
                    CronEvent.WARNING,
                    "UnsupportedSchedule",
                    "CRON_TZ or TZ in the schedule \"" + schedule
                            + "\" is not officially supported. If set, the TimeZone field will be ignored during execution.");
        } else if (spec.timeZone() != null) {
            local = Zones.load(spec.timeZone()).orElseThrow();
        }
        try {
            return CronParser.parseStandard(schedule, local);
        } catch (ScheduleException e) {
            error = "unparseable schedule \"" + schedule + "\": " + e.getMessage();
            return null;
        }
    }

    /**
     * Forbid: nothing new while a job is active; Replace: the active jobs are deleted first.
     * Lahar's bound: no more than {@link #MAX_ACTIVE} at once. False when the run is skipped.
     */
    private boolean processConcurrencyPolicy() {
        ConcurrencyPolicy policy = cronJob.spec().concurrency();
        if (policy == ConcurrencyPolicy.Forbid && !active.isEmpty()) {
            event(
                    CronEvent.WARNING,
                    "ForbidConcurrent",
                    "Skipping job creation because another job is already running");
            return false;
        }
        if (policy == ConcurrencyPolicy.Replace && !active.isEmpty()) {
            event(CronEvent.WARNING, "ReplaceConcurrent", "Replacing active job for CronJob");
            for (String name : List.copyOf(active)) {
                deleteJob(name, "replaced by the run of a later scheduled time");
            }
        }
        if (active.size() >= MAX_ACTIVE) {
            event(
                    CronEvent.WARNING,
                    "TooManyActiveJobs",
                    "Skipping job creation: " + active.size() + " jobs are active, the most one CronJob may have");
            return false;
        }
        return true;
    }

    /**
     * Volcano's createJob. A job of that name that exists already is this CronJob's (names are
     * its own): a finished one means the time was handled, an unfinished one is adopted as active.
     */
    private void createJob(String name, long scheduled) {
        int existing = indexOf(name);
        if (existing >= 0) {
            if (jobs.get(existing).finished() || active.contains(name)) {
                return;
            }
            active.add(name);
            lastScheduleTime = scheduled;
            return;
        }
        Job job = CronJobs.fromTemplate(cronJob, scheduled);
        actions.add(new CronAction.CreateJob(job, scheduled));
        event(
                CronEvent.NORMAL,
                "SuccessfulCreate",
                "Created job " + name + " for CronJob " + cronJob.namespace() + "/" + cronJob.name());
        jobs.add(new OwnedJob(name, scheduled, now, null, null, null));
        active.add(name);
        lastScheduleTime = scheduled;
    }

    private void deleteJob(String name, String reason) {
        int i = indexOf(name);
        if (i >= 0) {
            jobs.remove(i);
        }
        active.remove(name);
        actions.add(new CronAction.DeleteJob(name, reason));
        event(CronEvent.NORMAL, "SuccessfulDelete", "Deleted job \"" + name + "\"");
    }

    private void requeue(Schedule schedule) {
        due = ScheduleTimes.due(schedule, createdAt, lastScheduleTime, now);
    }

    private int indexOf(String name) {
        for (int i = 0; i < jobs.size(); i++) {
            if (jobs.get(i).name().equals(name)) {
                return i;
            }
        }
        return -1;
    }

    private void event(String type, String reason, String message) {
        events.add(new CronEvent(type, reason, message, now));
    }
}
