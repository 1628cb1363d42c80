package io.lahar.core.admission;

import io.lahar.core.api.Action;
import io.lahar.core.api.Event;
import io.lahar.core.api.GoDuration;
import io.lahar.core.api.LifecyclePolicy;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Volcano's validatePolicies (jobs/validate/util.go) for one policy list, job- or task-level,
 * reporting every problem instead of stopping at the first.
 */
final class PolicyValidation {

    static final String VALID_EVENTS = Arrays.stream(Event.values())
            .filter(Event::userSettable)
            .map(e -> "\"" + e.value() + "\"")
            .collect(Collectors.joining(", "));
    static final String VALID_ACTIONS = Arrays.stream(Action.values())
            .filter(Action::userSettable)
            .map(a -> "\"" + a.value() + "\"")
            .collect(Collectors.joining(", "));

    private PolicyValidation() {}

    /**
     * @param noPartitions why a RestartPartition action would never find a partition to restart
     *                     here (Volcano skips it at run time), null when it can
     */
    static void validate(List<LifecyclePolicy> policies, String path, String noPartitions, Violations v) {
        if (policies == null) {
            return;
        }
        Map<String, String> eventSeenAt = new HashMap<>();
        Set<Integer> exitCodes = new HashSet<>();
        boolean any = false;
        for (int j = 0; j < policies.size(); j++) {
            LifecyclePolicy p = policies.get(j);
            String at = path + "[" + j + "]";
            if (p == null) {
                v.add(at, "must specify either event or exitCode");
                continue;
            }
            boolean hasEvents = p.hasEvents();
            if (hasEvents && p.exitCode() != null) {
                v.add(at, "must not specify both event and exitCode");
            } else if (!hasEvents && p.exitCode() == null) {
                v.add(at, "must specify either event or exitCode");
            }
            validateAction(p.action(), at + ".action", v);
            if (noPartitions != null && Action.RESTART_PARTITION.value().equals(p.action())) {
                v.add(
                        at + ".action",
                        "RestartPartition restarts a partition of a task's partitionPolicy, but " + noPartitions);
            }
            if (hasEvents) {
                if (p.event() != null && !p.event().isEmpty()) {
                    any |= checkEvent(p.event(), at + ".event", eventSeenAt, v);
                }
                if (p.events() != null) {
                    for (int k = 0; k < p.events().size(); k++) {
                        String e = p.events().get(k);
                        if (e != null && e.equals(p.event())) {
                            continue; // the same event in event and events counts once, as in Volcano
                        }
                        if (p.events().subList(0, k).contains(e)) {
                            v.add(at + ".events[" + k + "]", "duplicate event \"" + e + "\" in one policy");
                            continue;
                        }
                        any |= checkEvent(e, at + ".events[" + k + "]", eventSeenAt, v);
                    }
                }
            }
            if (p.exitCode() != null) {
                if (p.exitCode() == 0) {
                    v.add(at + ".exitCode", "0 is not a valid error code");
                } else if (!exitCodes.add(p.exitCode())) {
                    v.add(at + ".exitCode", "duplicate exitCode " + p.exitCode() + " across different policies");
                }
            }
            if (p.timeout() != null) {
                Optional<Duration> d = GoDuration.parse(p.timeout());
                if (d.isEmpty()) {
                    v.add(
                            at + ".timeout",
                            "invalid duration \"" + p.timeout() + "\" (e.g. \"90s\", \"5m\", \"1h30m\")");
                } else if (d.get().isNegative()) {
                    v.add(at + ".timeout", "must not be negative");
                }
            }
        }
        if (any && eventSeenAt.size() > 1) {
            v.add(path, "if there's * here, no other policy should be here");
        }
    }

    /** Returns true when the event is "*". */
    private static boolean checkEvent(String name, String at, Map<String, String> seenAt, Violations v) {
        Optional<Event> e = Event.of(name);
        if (e.isEmpty() || !e.get().userSettable()) {
            v.add(at, "invalid policy event \"" + name + "\": valid events are " + VALID_EVENTS);
            return false;
        }
        if (seenAt.containsKey(name)) {
            v.add(at, "duplicate event \"" + name + "\" across different policies (first at " + seenAt.get(name) + ")");
            return e.get() == Event.ANY;
        }
        seenAt.put(name, at);
        return e.get() == Event.ANY;
    }

    private static void validateAction(String action, String at, Violations v) {
        if (action == null || action.isEmpty()) {
            v.add(at, "required: valid actions are " + VALID_ACTIONS);
            return;
        }
        Optional<Action> a = Action.of(action);
        if (a.isEmpty() || !a.get().userSettable()) {
            v.add(at, "invalid policy action \"" + action + "\": valid actions are " + VALID_ACTIONS);
        }
    }
}
