package io.lahar.core.scheduling.framework;

import io.lahar.core.api.PodGroupPhase;
import io.lahar.core.resource.Resource;
import io.lahar.core.scheduling.api.Problem;
import java.util.List;
import java.util.Map;

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
            if (message == null) return null;
            StringBuilder out = new StringBuilder(message.length());
            for (int i = 0; i < message.length(); ) {
                int end = figureEnd(message, i);
                if (end < 0) {
                    out.append(message.charAt(i++));
                } else {
                    out.append('#');
                    i = end;
                }
            }
            return out.toString();
        }

        /**
         * Whether two messages have one {@link #cause(String)}, compared in one pass without
         * writing either: the scheduler asks it of every waiting gang at every session.
         */
        public static boolean sameCause(String a, String b) {
            if (a == null || b == null) return a == b;
            int i = 0;
            int j = 0;
            while (i < a.length() && j < b.length()) {
                int endA = figureEnd(a, i);
                int endB = figureEnd(b, j);
                // A figure reads as the '#' it is written as in the cause.
                char x = endA < 0 ? a.charAt(i) : '#';
                char y = endB < 0 ? b.charAt(j) : '#';
                if (x != y) return false;
                i = endA < 0 ? i + 1 : endA;
                j = endB < 0 ? j + 1 : endB;
            }
            return i == a.length() && j == b.length();
        }

        /**
         * The end of the figure that starts at {@code i}, or -1 if none does: a count or a quantity
         * standing alone, as {@link Resource#format} and the messages' counts write them (digits, a
         * decimal part, a unit's letters), not preceded by a letter, digit, {@code _}, {@code .} or
         * {@code -}, so that digits inside a name (queue "q1", node "n-3") are part of the name.
         */
        private static int figureEnd(String s, int i) {
            if (!digit(s, i) || (i > 0 && inName(s.charAt(i - 1)))) return -1;
            int k = i + 1;
            while (digit(s, k)) k++;
            if (k < s.length() && s.charAt(k) == '.' && digit(s, k + 1)) {
                k += 2;
                while (digit(s, k)) k++;
            }
            while (k < s.length() && letter(s.charAt(k))) k++;
            return k;
        }

        private static boolean digit(String s, int i) {
            return i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '9';
        }

        private static boolean letter(char c) {
            return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
        }

        private static boolean inName(char c) {
            return letter(c) || (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-';
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
