package io.lahar.core.cron;

/**
 * Volcano's CronJob controller as a pure function: {@code apply(state, input)} gives the new
 * state with Volcano's status, the jobs to create or delete, the events, and when a tick must
 * next wake the CronJob. No clock, no I/O: time comes with the inputs (the clock ticks in the
 * log), so the same inputs create the same jobs at the same times.
 *
 * <p>Like Volcano's controller, which syncs on every change of the CronJob or of one of its jobs
 * and when its requeue time comes, every input is followed by a sync.
 */
public final class CronJobController {

    public CronOutcome apply(CronJobInfo state, CronInput input) {
        CronSync sync = new CronSync(state == null ? CronJobInfo.empty() : state, input.time());
        boolean live = state != null && state.live();
        if (!live) {
            // Before its Submit (or after its Delete) a CronJob does not exist: the rest are orphans.
            if (input instanceof CronInput.Submit s) {
                sync.submit(s.cronJob());
                sync.sync();
            }
            return sync.outcome();
        }
        switch (input) {
            case CronInput.Submit s -> {
                return sync.outcome(); // it exists: a second create is refused before it gets here
            }
            case CronInput.Update u -> sync.update(u.cronJob());
            case CronInput.Delete d -> {
                sync.delete();
                return sync.outcome();
            }
            case CronInput.Tick t -> {}
            case CronInput.JobObserved o -> sync.observe(o);
            case CronInput.JobRejected r -> sync.reject(r);
            case CronInput.JobGone g -> sync.gone(g);
        }
        sync.sync();
        return sync.outcome();
    }
}
