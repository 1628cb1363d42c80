package io.lahar.streams.job;

import io.lahar.core.api.Job;
import io.lahar.core.api.JobStatus;
import io.lahar.core.api.PodGroup;
import io.lahar.core.api.PodGroupPhase;
import io.lahar.core.job.Input;
import io.lahar.core.job.JobController;
import io.lahar.core.job.JobInfo;
import io.lahar.core.job.JobPod;
import io.lahar.core.job.Outcome;
import io.lahar.core.job.PodGroups;
import io.lahar.core.job.WorldAction;
import io.lahar.schema.codec.JobTransitionCodec;
import io.lahar.schema.codec.PodGroupCodec;
import io.lahar.schema.codec.PodIntentCodec;
import io.lahar.streams.job.kstreams.TaskCommit;
import io.lahar.streams.kafka.StateSize;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.jboss.logging.Logger;

/**
 * Runs one input through {@link JobController} for one job and writes what came of it: the
 * entry (store and timer index), the status (tombstone once deleted; a JobFlow's job's also to the
 * flow engine, {@link FlowStatusFeed}, a CronJob's to the CronJob engine, {@link CronStatusFeed}),
 * one transition record per
 * phase change with the input's coordinates, the pod intents and the pod group (tombstone on
 * its deletion). The only emitter of a job's transitions: every input of a job passes here.
 *
 * <p>Transitions, pod intents and pod groups go out with the input that caused them (the world
 * must act at once; the audit log keeps every phase change with its source offset). The status
 * goes out once per commit per job, its latest value: {@code lahar.job-status} is a compacted
 * latest-state topic whose readers cannot count on intermediate values anyway, and each status
 * record carries the whole manifest where a pod event changes a count
 * (docs/decisions/001-job-status-once-per-commit.md). The pending
 * statuses are sent before Kafka Streams commits the task ({@link TaskCommit}), then the changed
 * entries written ({@link JobEntryStore#commit()}), so both join the same transaction as the input
 * offsets; a task closed dirty drops them with its transaction and re-derives them when it re-reads
 * the inputs. An older pending status that a newer one would hide a job phase or task phase of is sent
 * first, unless the job's last status sent showed it ({@link StatusCoalescer}). Under
 * TopologyTestDriver (a commit per record) nothing changes.
 */
public final class JobEngine {

    private static final Logger LOG = Logger.getLogger(JobEngine.class);

    /** Its spec memo remembers the jobs the entry cache keeps as objects, no more (beyond them it never hits). */
    private final JobController controller = new JobController(JobEntryStore.DEFAULT_CAPACITY);

    private final ProcessorContext<Object, Object> context;
    private final TaskCommit commit;
    private final JobEntryStore jobs;
    private final TimerIndex timers;
    private final FlowStatusFeed flows;
    private final CronStatusFeed crons;
    private final StatusRecords statuses = new StatusRecords(JobEntryStore.DEFAULT_CAPACITY);
    /** Statuses not yet sent, per job key in the order first changed; a null job is a tombstone. */
    private final Map<String, PendingStatus> pending = new LinkedHashMap<>();

    /**
     * A status to send at the next commit, with where it was made: it goes out as if the input that
     * made it had sent it. A newer status of the job replaces the fields in place (one map lookup an
     * input, not two).
     */
    private static final class PendingStatus {
        private Job job;
        /** With a tombstone: the job deleted, whose owner (a CronJob) learns of it when the tombstone is sent. */
        private Job gone;

        private long time;
        private long timestamp;
        private TaskCommit.Origin origin;

        PendingStatus(Job job, long time, long timestamp, TaskCommit.Origin origin) {
            set(job, time, timestamp, origin);
        }

        void set(Job job, long time, long timestamp, TaskCommit.Origin origin) {
            this.job = job;
            this.gone = null;
            this.time = time;
            this.timestamp = timestamp;
            this.origin = origin;
        }
    }

    public JobEngine(
            ProcessorContext<Object, Object> context,
            TaskCommit commit,
            JobEntryStore jobs,
            TimerIndex timers,
            FlowStatusFeed flows,
            CronStatusFeed crons) {
        this.context = context;
        this.commit = commit;
        this.jobs = jobs;
        this.timers = timers;
        this.flows = flows;
        this.crons = crons;
        commit.listen(new TaskCommit.Listener() {
            @Override
            public void beforeCommit() {
                sendPendingStatuses();
                jobs.commit();
            }

            @Override
            public void discard() {
                pending.clear();
                statuses.forgetShown();
                jobs.discard();
            }
        });
    }

    /** The job's entry; empty for a key never seen. */
    public JobEntry load(String key) {
        return jobs.load(key);
    }

    /** Stores the entry and moves its timer index entry. */
    public void save(String key, JobEntry before, JobEntry after) {
        save(key, before, after, JobStore.MAX_BYTES);
    }

    private void save(String key, JobEntry before, JobEntry after, int limit) {
        jobs.save(key, after, limit);
        // The earliest timer's due time keys the job's timer index entry.
        timers.update(key, before.info().nextDue(), after.info().nextDue());
    }

    /** Applies {@code input}, saves and emits the outcome; returns the new entry. */
    public JobEntry apply(String key, JobEntry before, Input input, long timestamp) {
        return apply(key, before, input, timestamp, JobStore.MAX_BYTES);
    }

    /**
     * As {@link #apply(String, JobEntry, Input, long)}, for an input that changes the job's spec (a
     * submit, an update): the entry it leaves must be at most {@code limit} bytes.
     *
     * @throws StateSize.TooLarge when it would be over: then nothing was saved or sent
     */
    public JobEntry apply(String key, JobEntry before, Input input, long timestamp, int limit) {
        Outcome outcome = controller.apply(before.info(), input);
        JobEntry after = before.withInfo(outcome.state());
        save(key, before, after, limit);
        emit(key, before, after, outcome, input.time(), timestamp);
        return after;
    }

    /** Re-publishes the pod group after the scheduler changed only its conditions; {@code time} is the decision's. */
    public void publishPodGroup(String key, JobEntry entry, long time, long timestamp) {
        JobInfo info = entry.info();
        if (info.podGroupSpec() != null && entry.live()) {
            forward(key, podGroup(entry, info.podGroupSpec(), info.podGroupPhase(), time), timestamp, Sinks.POD_GROUPS);
        }
    }

    /** {@code time} is the input's event time, the time of every record it produces. */
    private void emit(String key, JobEntry before, JobEntry after, Outcome outcome, long time, long timestamp) {
        JobInfo was = before.info();
        JobInfo now = after.info();
        Job job = now.job();
        if (job == null) {
            return;
        }
        int version = now.version();
        if (!outcome.transitions().isEmpty()) {
            for (JobTransitionCodec.Value record : JobTransitionCodec.toValues(now, outcome.transitions(), source())) {
                forward(key, record, timestamp, Sinks.TRANSITIONS);
            }
        }
        String uid = now.uid();
        boolean podGroupSent = false;
        for (WorldAction action : outcome.actions()) {
            switch (action) {
                case WorldAction.UpsertPodGroup u -> {
                    PodGroupPhase phase = now.podGroupSpec() != null ? now.podGroupPhase() : PodGroupPhase.Pending;
                    forward(key, podGroup(after, u.podGroup().spec(), phase, time), timestamp, Sinks.POD_GROUPS);
                    podGroupSent = true;
                }
                // A tombstone: the compacted pod-groups topic forgets the gang, so a restart queues afresh.
                case WorldAction.DeletePodGroup d -> {
                    forward(key, null, timestamp, Sinks.POD_GROUPS);
                    podGroupSent = true;
                }
                default -> {
                    int podVersion =
                            action instanceof WorldAction.DeletePod d ? podVersion(was, d.name(), version) : version;
                    PodIntentCodec.Context ctx =
                            new PodIntentCodec.Context(job.namespace(), job.name(), uid, podVersion, time);
                    switch (PodIntentCodec.map(ctx, action)) {
                        case PodIntentCodec.Intent i -> forward(key, i.intent(), timestamp, Sinks.POD_INTENTS);
                        case PodIntentCodec.NotInContract n -> LOG.warnf("job %s: %s; not sent", key, n.why());
                        case PodIntentCodec.Elsewhere e -> {
                            // The job's own deletion (TTL): the status tombstone below says it.
                        }
                    }
                }
            }
        }
        if (!podGroupSent && now.podGroupSpec() != null && now.podGroupPhase() != was.podGroupPhase()) {
            // The scheduler moved the gang: the pod group record carries the phase it last decided.
            forward(key, podGroup(after, now.podGroupSpec(), now.podGroupPhase(), time), timestamp, Sinks.POD_GROUPS);
        }
        if (now.deleted()) {
            if (!was.deleted()) {
                // A tombstone: the compacted status topic forgets the job.
                queueStatus(key, null, time, timestamp);
                pending.get(key).gone = job;
            }
        } else if (!Objects.equals(job, was.job())) {
            queueStatus(key, job, time, timestamp);
        }
    }

    /** Keeps {@code job} (null: tombstone) as the job's status to send at commit. */
    private void queueStatus(String key, Job job, long time, long timestamp) {
        PendingStatus older = pending.get(key);
        if (older == null) {
            pending.put(key, new PendingStatus(job, time, timestamp, commit.origin()));
            return;
        }
        if (!StatusCoalescer.replaces(older.job, job, () -> statuses.shown(key))) {
            // It shows a phase the newer one would hide: readers waiting for that phase must see it.
            sendStatus(key, older, this::forward);
        }
        older.set(job, time, timestamp, commit.origin());
    }

    /** Sends every pending status, as if the input that made it had. */
    private void sendPendingStatuses() {
        if (pending.isEmpty()) {
            return;
        }
        try {
            for (Map.Entry<String, PendingStatus> e : pending.entrySet()) {
                PendingStatus p = e.getValue();
                sendStatus(
                        e.getKey(),
                        p,
                        (key, value, timestamp, sink) ->
                                commit.forward(p.origin, new Record<>(key, value, timestamp), sink));
            }
        } finally {
            pending.clear();
        }
    }

    /** How a record goes out: now, from the input being processed, or at the commit, from the one that made it. */
    @FunctionalInterface
    private interface Send {
        void send(String key, Object value, long timestamp, String sink);
    }

    /** Sends the status on {@code lahar.job-status} and, for a job a JobFlow or a CronJob created, to its engine too. */
    private void sendStatus(String key, PendingStatus p, Send send) {
        StatusRecords.Value value = statusRecord(key, p);
        send.send(key, value, p.timestamp, Sinks.STATUS);
        if (value != null) {
            flows.toFlow(value).ifPresent(f -> send.send(f.flowKey(), f.status(), p.timestamp, flows.node()));
            crons.observed(value.job(), p.time)
                    .ifPresent(c -> send.send(c.cronKey(), c.observation(), p.timestamp, crons.node()));
        } else if (p.gone != null) {
            crons.gone(p.gone, p.time)
                    .ifPresent(c -> send.send(c.cronKey(), c.observation(), p.timestamp, crons.node()));
        }
    }

    private StatusRecords.Value statusRecord(String key, PendingStatus p) {
        if (p.job == null) {
            statuses.tombstone(key);
            return null;
        }
        return statuses.toRecord(key, p.job, p.time);
    }

    /** Statuses not yet sent (for tests). */
    int pendingStatuses() {
        return pending.size();
    }

    private static int podVersion(JobInfo was, String pod, int fallback) {
        JobPod p = was.pods().get(pod);
        return p == null ? fallback : p.version();
    }

    private io.lahar.schema.PodGroup podGroup(
            JobEntry entry, PodGroup.PodGroupSpec spec, PodGroupPhase phase, long time) {
        JobInfo info = entry.info();
        Job job = info.job();
        JobStatus st = job.status();
        PodGroupCodec.Context ctx = new PodGroupCodec.Context(
                job.namespace(), job.name(), info.uid(), info.version(), info.createdAt(), time);
        return PodGroupCodec.toRecord(
                ctx,
                PodGroups.name(job),
                job.metadata() == null ? null : job.metadata().annotations(),
                job.metadata() == null ? null : job.metadata().labels(),
                spec,
                phase,
                PodGroupCodec.conditions(entry.podGroupConditions(), time),
                nz(st == null ? null : st.running()),
                nz(st == null ? null : st.succeeded()),
                nz(st == null ? null : st.failed()));
    }

    private static int nz(Integer i) {
        return i == null ? 0 : i;
    }

    private JobTransitionCodec.Source source() {
        return context.recordMetadata()
                .map(m -> new JobTransitionCodec.Source(m.topic(), m.partition(), m.offset()))
                .orElse(new JobTransitionCodec.Source("unknown", -1, -1));
    }

    private void forward(String key, Object value, long timestamp, String sink) {
        context.forward(new Record<>(key, value, timestamp), sink);
    }
}
