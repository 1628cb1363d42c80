package io.lahar.console.view;

import io.lahar.schema.CommandResult;
import io.lahar.schema.DeadLetter;
import io.lahar.schema.JobFlowStatusRecord;
import io.lahar.schema.JobStatusRecord;
import io.lahar.schema.JobTransition;
import io.lahar.schema.Node;
import io.lahar.schema.PodEvent;
import io.lahar.schema.PodGroup;
import io.lahar.schema.Queue;
import io.lahar.schema.QueueStatus;
import io.lahar.schema.Topics;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;

/**
 * Everything the console knows, folded from the public topics: one writer (the feed, a batch of
 * records at a time under the write lock) and any number of readers (the REST API and metrics,
 * under the read lock). Every query returns immutable rows, never the views' own objects.
 */
public final class ConsoleViews {

    /** Bounds on what the console keeps of the log topics. */
    public record Limits(int transitionsPerJob, int podsPerJob, int jobsWithHistory, int deadLetters, int changedKeys) {
        public static final Limits DEFAULT = new Limits(200, 10_000, 50_000, 500, 200);
    }

    /** Counts the records that are events in themselves (metrics). */
    public interface Counters {
        void commandResult(String kind, boolean accepted);

        void deadLetter(String topic, String processor);

        void undecodable(String topic);

        /** A pod group became Running (scheduled whole) this long after it was created. */
        void jobScheduled(long millis);

        /** A job of the queue was seen in a phase it was not in at its previous status record. */
        void jobEntered(String queue, String phase);
    }

    /** One record read from a topic: a decoded value, a tombstone (both null) or an undecodable one. */
    public record Input(
            String topic, int partition, long offset, long timestamp, String key, Object value, String error) {
        String position() {
            return topic + "/" + partition + "@" + offset;
        }
    }

    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private final Counters counters;
    final JobsView jobs = new JobsView();
    final TransitionsView transitions;
    final PodsView pods;
    final PodGroupsView podGroups = new PodGroupsView();
    final QueuesView queues = new QueuesView();
    final NodesView nodes = new NodesView();
    final FlowsView flows = new FlowsView();
    final DeadLettersView deadLetters;
    private final Changes changes;

    public ConsoleViews(Limits limits, Counters counters) {
        this.counters = counters;
        this.transitions = new TransitionsView(limits.transitionsPerJob(), limits.jobsWithHistory());
        this.pods = new PodsView(limits.podsPerJob(), limits.jobsWithHistory());
        this.deadLetters = new DeadLettersView(limits.deadLetters());
        this.changes = new Changes(limits.changedKeys());
    }

    /** Applies a batch of records in order, as one change for readers. */
    public void apply(List<Input> batch) {
        lock.writeLock().lock();
        try {
            for (Input in : batch) {
                try {
                    apply(in);
                } catch (RuntimeException e) {
                    // A record the views cannot fold (a value no writer should send) is shown, not fatal.
                    undecodable(new Input(
                            in.topic(),
                            in.partition(),
                            in.offset(),
                            in.timestamp(),
                            in.key(),
                            null,
                            "the console could not read it: " + e));
                }
            }
        } finally {
            lock.writeLock().unlock();
        }
    }

    private void apply(Input in) {
        if (in.error() != null) {
            undecodable(in);
            return;
        }
        String key = in.key() == null ? "" : in.key();
        Object v = in.value();
        switch (in.topic()) {
            case "lahar.job-status" -> {
                if (v == null) {
                    jobs.remove(key);
                    transitions.remove(key);
                    pods.remove(key);
                } else {
                    JobStatusRecord r = (JobStatusRecord) v;
                    JobsView.Entry before = jobs.get(key);
                    String phase = r.getStatus().getState().getPhase();
                    if (before == null
                            || before.record() == null
                            || !phase.equals(
                                    before.record().getStatus().getState().getPhase())) {
                        counters.jobEntered(r.getQueue(), phase);
                    }
                    jobs.put(key, r);
                }
                changes.mark(Changes.JOBS, key);
                changes.mark(Changes.QUEUES);
            }
            case "lahar.job-transitions" -> {
                if (v != null) {
                    transitions.add(key, (JobTransition) v, in.position());
                    changes.mark(Changes.JOBS, key);
                }
            }
            case "lahar.pod-events" -> {
                if (v != null) {
                    pods.add(key, (PodEvent) v);
                    changes.mark(Changes.JOBS, key);
                    changes.mark(Changes.NODES);
                }
            }
            case "lahar.pod-groups" -> {
                if (v == null) {
                    podGroups.remove(key);
                } else {
                    PodGroup g = (PodGroup) v;
                    PodGroupsView.PodGroupRow before = podGroups.get(key);
                    podGroups.put(key, g);
                    if ("Running".equals(g.getStatus().getPhase())
                            && (before == null
                                    || !"Running".equals(before.phase())
                                    || before.jobVersion() != g.getJobVersion())) {
                        counters.jobScheduled(g.getTime().toEpochMilli()
                                - g.getCreationTimestamp().toEpochMilli());
                    }
                }
                changes.mark(Changes.JOBS, key);
                changes.mark(Changes.QUEUES);
            }
            case "lahar.queues" -> {
                if (v == null) {
                    queues.removeConfig(key);
                } else {
                    queues.putConfig(key, (Queue) v);
                }
                changes.mark(Changes.QUEUES);
            }
            case "lahar.queue-status" -> {
                if (v == null) {
                    queues.removeStatus(key);
                } else {
                    queues.putStatus(key, (QueueStatus) v);
                }
                changes.mark(Changes.QUEUES);
            }
            case "lahar.nodes" -> {
                if (v == null) {
                    nodes.remove(key);
                } else {
                    nodes.put(key, (Node) v);
                }
                changes.mark(Changes.NODES);
            }
            case "lahar.flow-status" -> {
                if (v == null) {
                    flows.remove(key);
                } else {
                    flows.put(key, (JobFlowStatusRecord) v);
                }
                changes.mark(Changes.FLOWS, key);
            }
            case "lahar.dead-letters" -> {
                if (v != null) {
                    deadLetter((DeadLetter) v, in.position());
                }
            }
            case "lahar.command-results" -> {
                if (v != null) {
                    CommandResult r = (CommandResult) v;
                    counters.commandResult(r.getKind(), r.getAccepted());
                }
            }
            default -> {
                // A topic the feed reads is always one of the above.
            }
        }
    }

    private void deadLetter(DeadLetter d, String position) {
        counters.deadLetter(d.getTopic(), d.getProcessor());
        Undecodable explained = deadLetters.add(d, position);
        if (explained != null && explained.topic().equals(Topics.JOB_STATUS.name())) {
            JobsView.Entry e = jobs.get(explained.key());
            if (e != null && e.record() == null) {
                jobs.undecodable(explained.key(), explained);
                changes.mark(Changes.JOBS, explained.key());
            }
        }
        changes.mark(Changes.DEAD_LETTERS);
    }

    private void undecodable(Input in) {
        counters.undecodable(in.topic());
        Undecodable u = deadLetters.undecodable(
                new Undecodable(in.topic(), in.partition(), in.offset(), in.timestamp(), in.key(), in.error(), null));
        if (in.key() != null && in.topic().equals(Topics.JOB_STATUS.name())) {
            jobs.undecodable(in.key(), u);
            changes.mark(Changes.JOBS, in.key());
        } else if (in.key() != null && in.topic().equals(Topics.FLOW_STATUS.name())) {
            flows.undecodable(in.key(), u);
            changes.mark(Changes.FLOWS, in.key());
        }
        changes.mark(Changes.DEAD_LETTERS);
    }

    /** What changed since the last call (kind → keys or {@link Changes#ALL}). */
    public Map<String, Set<String>> drainChanges() {
        lock.writeLock().lock();
        try {
            return changes.drain();
        } finally {
            lock.writeLock().unlock();
        }
    }

    public <T> T read(Supplier<T> query) {
        lock.readLock().lock();
        try {
            return query.get();
        } finally {
            lock.readLock().unlock();
        }
    }

    public JobsView.Page jobs(JobsView.Query q) {
        return read(() -> jobs.query(q));
    }

    /** One job with everything the console has about it, or null when it has no status record. */
    public JobDetail job(String key) {
        return read(() -> {
            JobsView.Entry e = jobs.get(key);
            if (e == null) {
                return null;
            }
            if (e.record() == null) {
                return new JobDetail(e.row(), null, null, List.of(), transitions.of(key), podGroups.get(key));
            }
            return new JobDetail(
                    e.row(),
                    JobDetail.Status.of(e.record().getStatus()),
                    e.manifest(),
                    pods.of(key, e.record().getUid()),
                    transitions.of(key),
                    podGroups.get(key));
        });
    }

    public List<QueuesView.QueueRow> queues() {
        return read(() -> queues.rows(jobsByQueue(), podGroups.unschedulableByQueue()));
    }

    /** Queue → phase → number of jobs. */
    public Map<String, Map<String, Integer>> jobsByQueue() {
        return read(() -> {
            Map<String, Map<String, Integer>> out = new TreeMap<>();
            for (JobsView.Entry e : jobs.entries()) {
                if (e.record() != null) {
                    out.computeIfAbsent(e.row().queue(), q -> new TreeMap<>())
                            .merge(e.row().phase(), 1, Integer::sum);
                }
            }
            return out;
        });
    }

    /** Queue → Unschedulable reason → pod groups. */
    public Map<String, Map<String, Integer>> unschedulable() {
        return read(podGroups::unschedulableByQueue);
    }

    public List<NodesView.NodeRow> nodes() {
        return read(() -> nodes.rows(pods, jobs));
    }

    public List<FlowsView.FlowRow> flows() {
        return read(flows::rows);
    }

    public FlowsView.FlowDetail flow(String key) {
        return read(() -> flows.detail(key));
    }

    /** The dead-letters page: the latest letters and the records the console could not decode. */
    public record DeadLetters(List<DeadLettersView.DeadLetterRow> letters, List<Undecodable> undecodable) {}

    public DeadLetters deadLetters() {
        return read(() -> new DeadLetters(deadLetters.letters(), deadLetters.undecodables()));
    }

    /** Sizes for the header and health: jobs, flows, queues, nodes. */
    public Map<String, Integer> counts() {
        return read(() -> {
            Map<String, Integer> out = new HashMap<>();
            out.put("jobs", jobs.size());
            out.put("flows", flows.rows().size());
            out.put("nodes", nodes.size());
            return out;
        });
    }
}
