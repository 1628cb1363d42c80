package io.lahar.scheduler.loop;

import io.lahar.core.api.PodGroupPhase;
import io.lahar.core.resource.Resource;
import io.lahar.core.scheduling.api.JobInfo;
import io.lahar.core.scheduling.api.Snapshot;
import io.lahar.core.scheduling.framework.SessionResult;
import io.lahar.schema.QueueState;
import io.lahar.schema.QueueStatus;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The {@code lahar.queue-status} records of a session, as Volcano's scheduler updates a Queue's
 * status: its pod groups counted by phase, what it holds and what it deserves. Like pod group
 * statuses, a queue's status is written only when it changed; a queue that is gone gets a
 * tombstone (a null value) so the compacted topic forgets it. Its cumulative {@code entered} counts
 * go on from the record last written (read back when an instance takes over), so they survive
 * restarts and a failed transaction, which rebuilds what was written, never counts twice.
 */
public final class QueueStatuses {

    private final Map<String, QueueStatus> written = new HashMap<>();

    /**
     * Queue name to its new status, or to null for a tombstone; only what changed.
     *
     * @param entered by queue, the phases the session's pod groups entered, and how many times
     */
    public Map<String, QueueStatus> changes(
            Snapshot snapshot, SessionResult result, Map<String, Map<String, Integer>> entered, Instant now) {
        Map<String, int[]> counts = new HashMap<>();
        for (JobInfo j : snapshot.jobs()) {
            PodGroupPhase phase = result.phaseOf(j.key(), j.phase());
            counts.computeIfAbsent(j.queue(), q -> new int[PodGroupPhase.values().length])[phase.ordinal()]++;
        }
        Map<String, QueueStatus> out = new TreeMap<>();
        Map<String, QueueStatus> current = new LinkedHashMap<>();
        for (SessionResult.QueueStatus q : result.queues()) {
            int[] c = counts.getOrDefault(q.name(), new int[PodGroupPhase.values().length]);
            QueueStatus old = written.get(q.name());
            Map<String, Long> total = new TreeMap<>();
            if (old != null) {
                old.getEntered().forEach((phase, n) -> total.put(phase.toString(), n));
            }
            entered.getOrDefault(q.name(), Map.of()).forEach((phase, n) -> total.merge(phase, (long) n, Long::sum));
            QueueStatus s = QueueStatus.newBuilder()
                    .setName(q.name())
                    .setState(QueueState.valueOf(
                            q.state().name())) // in effect: Closing while a closed queue has pod groups
                    .setPending(c[PodGroupPhase.Pending.ordinal()])
                    .setInqueue(c[PodGroupPhase.Inqueue.ordinal()])
                    .setRunning(c[PodGroupPhase.Running.ordinal()])
                    .setCompleted(c[PodGroupPhase.Completed.ordinal()])
                    .setUnknown(c[PodGroupPhase.Unknown.ordinal()])
                    .setAllocated(q.allocated().toQuantities())
                    .setDeserved(q.deserved() == null ? Map.of() : q.deserved().toQuantities())
                    .setCapability(q.capability() == null ? Map.of() : limited(q.capability()))
                    .setGuarantee(
                            q.guarantee() == null ? Map.of() : q.guarantee().toQuantities())
                    .setEntered(total)
                    .setPlugin(q.plugin())
                    .setTime(now)
                    .build();
            current.put(q.name(), s);
            if (old == null || !sameButTime(old, s)) out.put(q.name(), s);
        }
        for (String gone : written.keySet()) {
            if (!current.containsKey(gone)) out.put(gone, null);
        }
        return out;
    }

    /** A capability's bounded dimensions (one it does not name is not limited). */
    private static Map<String, String> limited(Resource capability) {
        Map<String, String> out = new TreeMap<>();
        for (String d : capability.names()) {
            long v = capability.get(d);
            if (v != Resource.UNLIMITED && !(Resource.PODS.equals(d) && v == 0)) out.put(d, Resource.format(d, v));
        }
        return out;
    }

    /** Records what was committed, so the next session writes only changes. */
    public void written(Map<String, QueueStatus> changes) {
        changes.forEach((name, s) -> {
            if (s == null) written.remove(name);
            else written.put(name, s);
        });
    }

    // Field by field: Avro's copying builder would resolve the enum through a class loader that,
    // inside Quarkus, holds another copy of the generated classes.
    private static boolean sameButTime(QueueStatus a, QueueStatus b) {
        return a.getState() == b.getState()
                && a.getPending() == b.getPending()
                && a.getInqueue() == b.getInqueue()
                && a.getRunning() == b.getRunning()
                && a.getCompleted() == b.getCompleted()
                && a.getUnknown() == b.getUnknown()
                && a.getAllocated().equals(b.getAllocated())
                && a.getDeserved().equals(b.getDeserved())
                && a.getCapability().equals(b.getCapability())
                && a.getGuarantee().equals(b.getGuarantee())
                && entered(a).equals(entered(b))
                && java.util.Objects.equals(str(a.getPlugin()), str(b.getPlugin()));
    }

    /** The counts with plain string keys: a record read back holds Avro's Utf8 keys. */
    private static Map<String, Long> entered(QueueStatus s) {
        Map<String, Long> out = new TreeMap<>();
        s.getEntered().forEach((phase, n) -> out.put(phase.toString(), n));
        return out;
    }

    private static String str(CharSequence s) {
        return s == null ? null : s.toString();
    }
}
