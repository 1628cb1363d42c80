package io.lahar.core.cron;

import io.lahar.core.api.CronJob;
import io.lahar.core.api.Job;
import io.lahar.core.api.ObjectReference;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

/**
 * The state of one CronJob, all its controller needs between two inputs: the admitted CronJob
 * (its metadata carries the creation time and uid), Volcano's status fields, the jobs it created
 * that still exist, the latest events, and when a tick must next wake it. Plain data (JSON
 * round-trips), bounded: at most {@link CronSync#MAX_ACTIVE} active jobs, the history limits'
 * finished ones, {@link #MAX_EVENTS} events.
 *
 * @param createdAt          the CronJob's creation time (Volcano's CreationTimestamp), epoch ms
 * @param active             the names of the active jobs (Volcano's status.active), oldest first
 * @param lastScheduleTime   epoch ms of the last scheduled time a job was created for, null before the first
 * @param lastSuccessfulTime epoch ms when a job last completed, null before the first
 * @param jobs               the jobs it created that exist, oldest first
 * @param due                when a tick must wake it next (Volcano's requeueAfter, absolute); null when
 *                           nothing is due (suspended, deleted, an error)
 * @param time               the last input's time: time never runs backwards for a CronJob
 */
public record CronJobInfo(
        CronJob cronJob,
        long createdAt,
        List<String> active,
        Long lastScheduleTime,
        Long lastSuccessfulTime,
        List<OwnedJob> jobs,
        List<CronEvent> events,
        Long due,
        boolean deleted,
        long time) {

    /** The events kept in the state (and shown in its status), newest last. */
    public static final int MAX_EVENTS = 10;

    public CronJobInfo {
        active = active == null ? List.of() : List.copyOf(active);
        jobs = jobs == null ? List.of() : List.copyOf(jobs);
        events = events == null ? List.of() : List.copyOf(events);
    }

    /** No CronJob yet: only a Submit does something. */
    public static CronJobInfo empty() {
        return new CronJobInfo(null, 0, List.of(), null, null, List.of(), List.of(), null, false, 0);
    }

    /** A CronJob of this name exists: submitted and not deleted. */
    public boolean live() {
        return cronJob != null && !deleted;
    }

    public String name() {
        return cronJob == null ? null : cronJob.name();
    }

    public OwnedJob job(String name) {
        for (OwnedJob j : jobs) {
            if (j.name().equals(name)) {
                return j;
            }
        }
        return null;
    }

    /** Volcano's CronJobStatus: the active jobs as references, the two times in RFC 3339 (seconds). */
    public CronJob.CronJobStatus status() {
        List<ObjectReference> refs = new ArrayList<>();
        String namespace = cronJob == null ? null : cronJob.namespace();
        for (String name : active) {
            OwnedJob j = job(name);
            refs.add(new ObjectReference(Job.KIND, namespace, name, j == null ? null : j.uid(), Job.API_VERSION, null));
        }
        return new CronJob.CronJobStatus(
                refs.isEmpty() ? null : refs, rfc3339(lastScheduleTime), rfc3339(lastSuccessfulTime));
    }

    /** Kubernetes' metav1.Time: RFC 3339 in UTC, whole seconds. */
    public static String rfc3339(Long epochMillis) {
        return epochMillis == null
                ? null
                : Instant.ofEpochMilli(epochMillis)
                        .truncatedTo(ChronoUnit.SECONDS)
                        .toString();
    }
}
