package io.lahar.core.scheduling.framework;

import io.lahar.core.api.PodGroupPhase;
import io.lahar.core.resource.Resource;
import io.lahar.core.scheduling.api.Problem;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * What one session decided.
 *
 * @param bindings     tasks to bind now (their gang is ready), with the action that placed them
 * @param nominations  tasks promised a node that is not free yet: pipelined onto resources being
 *                     released, or placed in a gang that is not ready as a whole (not to be bound)
 * @param evictions    tasks to evict, with the action and reason
 * @param phaseChanges pod groups whose phase changed
 * @param conditions   per pod group key, its status condition (Unschedulable with the reason, or
 *                     Scheduled)
 * @param queues       per queue, its deserved share (null without proportion) and allocation
 * @param problems     what was wrong with the snapshot (those entries were skipped)
 */
public record SessionResult(
        List<Binding> bindings,
        List<Nomination> nominations,
        List<Eviction> evictions,
        List<PhaseChange> phaseChanges,
        Map<String, PodGroupCondition> conditions,
        List<QueueStatus> queues,
        List<Problem> problems) {

    public record Binding(String job, String task, String node, String action) {}

    public record Nomination(String job, String task, String node, String action) {}

    public record Eviction(String job, String task, String node, String action, String reason) {}

    public record PhaseChange(String job, PodGroupPhase from, PodGroupPhase to) {}

    /** As a PodGroup status condition: type Unschedulable (status True) or Scheduled. */
    public record PodGroupCondition(String type, String status, String reason, String message) {
        public static final String UNSCHEDULABLE = "Unschedulable";
        public static final String SCHEDULED = "Scheduled";

        /**
         * A count or a quantity standing alone, as {@link Resource#format} and the messages' counts
         * write them; digits inside a name (queue "q1", node "n-3") are part of the name.
         */
        private static final Pattern FIGURE = Pattern.compile("(?<![\\w.-])\\d+(\\.\\d+)?[a-zA-Z]*");

        /** What the gang waits for without how far it is from it: {@link #cause(String)} of the message. */
        public String cause() {
            return cause(message);
        }

        /**
         * A condition's message with its figures written {@code #}. The messages the session builds
         * ({@code UnschedulableMessage}, {@code FitErrors}, the queue checks) are words, names and
         * figures; the figures (a queue's allocated amount, a node's free cpu, how many nodes lack
         * it) move with every bind elsewhere while the cause stays, so two messages with one cause
         * tell a reader nothing new (decision 068).
         */
        public static String cause(String message) {
            return message == null ? null : FIGURE.matcher(message).replaceAll("#");
        }
    }

    /**
     * A queue at the end of the session.
     *
     * @param state      the state in effect (Closing while a closed queue has pod groups)
     * @param deserved   its deserved share as the enforcing plugin computed it, null without one
     * @param capability the real capability the plugin enforces, null without one
     * @param guarantee  what the queue is guaranteed
     * @param plugin     the plugin enforcing shares and limits (proportion, capacity), null without one
     */
    public record QueueStatus(
            String name,
            Resource deserved,
            Resource allocated,
            io.lahar.core.api.QueueState state,
            Resource capability,
            Resource guarantee,
            String plugin) {
        public QueueStatus(String name, Resource deserved, Resource allocated) {
            this(name, deserved, allocated, io.lahar.core.api.QueueState.Open, null, Resource.EMPTY, null);
        }
    }

    /** The phase a pod group ends the session in (its old phase when unchanged). */
    public PodGroupPhase phaseOf(String job, PodGroupPhase before) {
        for (PhaseChange c : phaseChanges) {
            if (c.job().equals(job)) return c.to();
        }
        return before;
    }

    public List<Binding> bindingsOf(String job) {
        return bindings.stream().filter(b -> b.job().equals(job)).toList();
    }
}
