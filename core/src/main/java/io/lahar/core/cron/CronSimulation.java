package io.lahar.core.cron;

import io.lahar.core.admission.Admission;
import io.lahar.core.admission.AdmissionContext;
import io.lahar.core.admission.AdmissionResult;
import io.lahar.core.api.CronJob;
import io.lahar.core.api.Job;
import io.lahar.core.api.JobPhase;
import io.lahar.core.api.Manifest;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * "What would happen if..." for a CronJob: its controller against a world where the jobs it
 * creates go through job admission (a refused one is answered at once) and then exist (Pending)
 * until the script moves them, and the jobs it deletes vanish. Time starts at {@code start} (the
 * CronJob's creation) and moves only with {@code advance} and {@code tick}, waking the CronJob at
 * each scheduled time on the way, as the clock ticks in the log wake it.
 */
public final class CronSimulation {

    /** At most this many wake-ups in one step: a long advance of a frequent schedule is refused, not run for ages. */
    static final int MAX_WAKES = 1_000;

    private final CronJobController controller = new CronJobController();
    private final CronJob cronJob;
    private AdmissionContext jobs;
    private CronJobInfo state = CronJobInfo.empty();
    private long time;
    /** The jobs that exist, by name, with their phases; the last one created is {@code latest}. */
    private final Map<String, JobPhase> world = new LinkedHashMap<>();

    private final Map<String, Job> manifests = new LinkedHashMap<>();
    private String latest;

    private List<String> created;
    private List<String> deleted;
    private List<String> events;

    /**
     * @param admitted the CronJob as admission accepted it (defaults applied), with its uid
     * @param existing what job admission sees: queues, priority classes, other jobs
     * @param start    the CronJob's creation time, epoch ms
     */
    public CronSimulation(CronJob admitted, AdmissionContext existing, long start) {
        this.cronJob = admitted;
        this.jobs = existing;
        this.time = start;
    }

    /** Step 0: the CronJob is created. */
    public CronStepReport start() {
        begin();
        apply(new CronInput.Submit(cronJob, time));
        return report(0, null);
    }

    public CronStepReport run(int step, CronStep s) {
        begin();
        String ignored = switch (s) {
            case CronStep.AdvanceStep a -> wakeUntil(time + a.by().toMillis());
            case CronStep.TickStep t ->
                t.to().toEpochMilli() < time
                        ? "time does not go back: " + t.to() + " is before " + java.time.Instant.ofEpochMilli(time)
                        : wakeUntil(t.to().toEpochMilli());
            case CronStep.JobPhaseStep j -> {
                String name = resolve(j.job());
                if (name == null) {
                    yield missing(j.job());
                }
                world.put(name, j.phase());
                apply(new CronInput.JobObserved(name, null, j.phase(), time, time));
                yield null;
            }
            case CronStep.JobDeletedStep d -> {
                String name = resolve(d.job());
                if (name == null) {
                    yield missing(d.job());
                }
                remove(name);
                apply(new CronInput.JobGone(name, time));
                yield null;
            }
            case CronStep.SuspendStep u -> {
                CronJob current = state.cronJob() == null ? cronJob : state.cronJob();
                apply(new CronInput.Update(current.withSpec(current.spec().withSuspend(u.suspend())), time));
                yield null;
            }
            case CronStep.DeleteStep d -> {
                apply(new CronInput.Delete(time));
                yield null;
            }
        };
        return report(step, ignored);
    }

    public CronJobInfo state() {
        return state;
    }

    /** Wakes the CronJob at each due time up to {@code target}, then ticks at {@code target}. */
    private String wakeUntil(long target) {
        int wakes = 0;
        while (state.due() != null && state.due() <= target) {
            if (++wakes > MAX_WAKES) {
                return "more than " + MAX_WAKES
                        + " scheduled times in one step: advance in smaller steps (time stopped at "
                        + java.time.Instant.ofEpochMilli(time) + ")";
            }
            time = Math.max(time, state.due());
            apply(new CronInput.Tick(time));
        }
        time = target;
        apply(new CronInput.Tick(time));
        return null;
    }

    /** Applies an input and carries out its actions; a refused job comes back as the next input. */
    private void apply(CronInput first) {
        Deque<CronInput> inputs = new ArrayDeque<>(List.of(first));
        while (!inputs.isEmpty()) {
            CronOutcome o = controller.apply(state, inputs.poll());
            state = o.state();
            o.events().forEach(e -> events.add(e.reason() + ": " + e.message()));
            for (CronAction a : o.actions()) {
                switch (a) {
                    case CronAction.CreateJob c -> {
                        AdmissionResult<Manifest> r = Admission.create(c.job(), jobs);
                        if (r.accepted()) {
                            jobs = jobs.with(r.object());
                            manifests.put(c.job().name(), (Job) r.object());
                            world.put(c.job().name(), JobPhase.Pending);
                            created.add(c.job().name());
                            latest = c.job().name();
                        } else {
                            inputs.add(new CronInput.JobRejected(
                                    c.job().name(),
                                    r.violations().stream()
                                            .map(Object::toString)
                                            .toList(),
                                    time));
                        }
                    }
                    case CronAction.DeleteJob d -> {
                        if (world.containsKey(d.name())) {
                            remove(d.name());
                            deleted.add(d.name());
                        }
                    }
                }
            }
        }
    }

    private void remove(String name) {
        world.remove(name);
        Job j = manifests.remove(name);
        if (j != null) {
            jobs = jobs.without(j);
        }
    }

    private String resolve(String job) {
        String name = job.equals("latest") ? latest : job;
        return name != null && world.containsKey(name) ? name : null;
    }

    private String missing(String job) {
        return job.equals("latest") && latest == null
                ? "no job created yet"
                : "job " + (job.equals("latest") ? latest : job) + " does not exist (not created, or deleted)";
    }

    private void begin() {
        created = new ArrayList<>();
        deleted = new ArrayList<>();
        events = new ArrayList<>();
    }

    private CronStepReport report(int step, String ignored) {
        Map<String, String> phases = new LinkedHashMap<>();
        world.forEach((k, v) -> phases.put(k, v.name()));
        return new CronStepReport(
                step,
                java.time.Instant.ofEpochMilli(time).toString(),
                created,
                deleted,
                phases,
                state.status(),
                CronJobInfo.rfc3339(state.due()),
                events.isEmpty() ? null : events,
                ignored);
    }
}
