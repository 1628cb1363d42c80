package io.lahar.schema.codec;

import io.lahar.core.api.PodGroupPhase;
import io.lahar.core.job.Input;
import io.lahar.schema.PodGroupCondition;
import io.lahar.schema.PodGroupStatus;
import io.lahar.schema.SchedulerDecision;

import java.util.Arrays;
import java.util.Optional;

/** A {@code lahar.scheduler-decisions} record to what the job engine learns from it. */
public final class SchedulerDecisionCodec {

    private static final String UNSCHEDULABLE = "Unschedulable";

    private SchedulerDecisionCodec() {
    }

    /**
     * A pod-group status decision as {@link Input.PodGroupObserved}; empty for binds and
     * evictions, which the engine learns about from the pods' own events.
     *
     * @throws IllegalArgumentException "decision.phase: ..." for a phase this engine does not know
     */
    /**
     * Why the job engine does not take a pod-group status decision for the job, empty when it
     * does: a decision of an older scheduler epoch than the newest seen for the job (the fenced
     * instance's), about another pod group, or about an earlier incarnation of the job's group
     * (made before a restart; the new group must pass the Pending → Inqueue gate on its own).
     * One rule for the streams app and {@code lahar replay}, so replay drops what the engine dropped.
     *
     * @param jobEpoch     the newest scheduler epoch the job has taken a decision of
     * @param jobPodGroup  the name of the job's pod group
     * @param jobVersion   the job's version, which its current pod group was made for
     */
    public static Optional<String> notForJob(SchedulerDecision decision, long jobEpoch, String jobPodGroup,
                                             int jobVersion) {
        if (decision.getEpoch() < jobEpoch) {
            return Optional.of("dropped: epoch older than " + jobEpoch);
        }
        if (!jobPodGroup.equals(decision.getPodGroup())) {
            return Optional.of("skipped: not the job's pod group");
        }
        Integer version = decision.getPodGroupVersion();
        if (version != null && version != jobVersion) {
            return Optional.of("skipped: about the pod group of job version " + version + ", the job is at version "
                    + jobVersion);
        }
        return Optional.empty();
    }

    public static Optional<Input.PodGroupObserved> toInput(SchedulerDecision decision) {
        if (!(decision.getDecision() instanceof PodGroupStatus status)) {
            return Optional.empty();
        }
        PodGroupPhase phase = Arrays.stream(PodGroupPhase.values()).filter(p -> p.name().equals(status.getPhase()))
                .findFirst().orElseThrow(() -> new IllegalArgumentException("decision.phase: \"" + status.getPhase()
                        + "\" is not a pod group phase this engine knows " + Arrays.toString(PodGroupPhase.values())));
        // Volcano's scheduler sets an Unschedulable condition (status True) on a gang it could not
        // place; its reason and message are what a user of a Pending job wants to read.
        Optional<PodGroupCondition> unschedulable = status.getConditions().stream()
                .filter(c -> UNSCHEDULABLE.equals(c.getType()) && "True".equalsIgnoreCase(c.getStatus()))
                .reduce((first, second) -> second);
        return Optional.of(new Input.PodGroupObserved(phase, decision.getTime().toEpochMilli(),
                unschedulable.map(PodGroupCondition::getReason).orElse(null),
                unschedulable.map(PodGroupCondition::getMessage).orElse(null)));
    }
}
