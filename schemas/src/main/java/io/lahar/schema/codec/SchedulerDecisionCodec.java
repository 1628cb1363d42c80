package io.lahar.schema.codec;

import io.lahar.core.api.PodGroup;
import io.lahar.core.api.PodGroupPhase;
import io.lahar.core.job.Input;
import io.lahar.schema.PodGroupCondition;
import io.lahar.schema.PodGroupStatus;
import io.lahar.schema.SchedulerDecision;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** A {@code lahar.scheduler-decisions} record to what the job engine learns from it. */
public final class SchedulerDecisionCodec {

    private static final String UNSCHEDULABLE = "Unschedulable";

    private SchedulerDecisionCodec() {}

    /**
     * A pod-group status decision as {@link Input.PodGroupObserved}; empty for binds and
     * evictions, which the engine learns about from the pods' own events.
     *
     * @throws IllegalArgumentException "decision.phase: ..." for a phase this engine does not know
     */
    public static Optional<Input.PodGroupObserved> toInput(SchedulerDecision decision) {
        if (!(decision.getDecision() instanceof PodGroupStatus status)) {
            return Optional.empty();
        }
        PodGroupPhase phase = Arrays.stream(PodGroupPhase.values())
                .filter(p -> p.name().equals(status.getPhase()))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("decision.phase: \"" + status.getPhase()
                        + "\" is not a pod group phase this engine knows " + Arrays.toString(PodGroupPhase.values())));
        // Volcano's scheduler sets an Unschedulable condition (status True) on a gang it could not
        // place; its reason and message are what a user of a Pending job wants to read.
        Optional<PodGroupCondition> unschedulable = status.getConditions().stream()
                .filter(c -> UNSCHEDULABLE.equals(c.getType()) && "True".equalsIgnoreCase(c.getStatus()))
                .reduce((first, second) -> second);
        return Optional.of(new Input.PodGroupObserved(
                phase,
                decision.getTime().toEpochMilli(),
                unschedulable.map(PodGroupCondition::getReason).orElse(null),
                unschedulable.map(PodGroupCondition::getMessage).orElse(null)));
    }

    /** A pod-group status decision's conditions, as the job keeps them for its pod group record. */
    public static List<PodGroup.PodGroupCondition> conditions(PodGroupStatus status) {
        return status.getConditions().stream()
                .map(c -> new PodGroup.PodGroupCondition(
                        c.getType(),
                        c.getStatus(),
                        c.getTransitionID(),
                        c.getLastTransitionTime().toString(),
                        c.getReason(),
                        c.getMessage()))
                .toList();
    }
}
