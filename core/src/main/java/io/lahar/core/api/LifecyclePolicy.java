package io.lahar.core.api;

import com.fasterxml.jackson.annotation.JsonIgnore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;

/**
 * Volcano's LifecyclePolicy: on {@code event} (or any of {@code events}) or a container
 * {@code exitCode}, take {@code action}, optionally after {@code timeout}. Event and action stay
 * strings so an unknown value reaches admission (which names it) instead of failing the parse;
 * {@link #actionValue()} and {@link #eventValues()} give the typed values of an admitted policy.
 */
public record LifecyclePolicy(String action, String event, List<String> events, Integer exitCode, String timeout) {

    public static LifecyclePolicy onEvent(Event event, Action action) {
        return new LifecyclePolicy(action.value(), event.value(), null, null, null);
    }

    public static LifecyclePolicy onExitCode(int exitCode, Action action) {
        return new LifecyclePolicy(action.value(), null, null, exitCode, null);
    }

    /** {@code event} and {@code events} together, without repeats, in order (Volcano's getEventList). */
    @JsonIgnore
    public List<String> eventNames() {
        LinkedHashSet<String> all = new LinkedHashSet<>();
        if (events != null) {
            all.addAll(events);
        }
        if (event != null && !event.isEmpty()) {
            all.add(event);
        }
        return new ArrayList<>(all);
    }

    @JsonIgnore
    public boolean hasEvents() {
        return (event != null && !event.isEmpty()) || (events != null && !events.isEmpty());
    }

    /** The typed events of this policy; unknown names are skipped (admission rejects them). */
    @JsonIgnore
    public List<Event> eventValues() {
        return eventNames().stream().map(Event::of).flatMap(Optional::stream).toList();
    }

    @JsonIgnore
    public Optional<Action> actionValue() {
        return Action.of(action);
    }

    @JsonIgnore
    public Optional<Duration> timeoutDuration() {
        return timeout == null ? Optional.empty() : GoDuration.parse(timeout);
    }
}
