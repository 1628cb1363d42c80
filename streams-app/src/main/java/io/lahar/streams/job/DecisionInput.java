package io.lahar.streams.job;

import io.lahar.core.api.PodGroup;
import io.lahar.core.job.Input;
import io.lahar.core.job.PodGroupDecisions;
import io.lahar.schema.PodGroupStatus;
import io.lahar.schema.SchedulerDecision;
import io.lahar.schema.Topics;
import io.lahar.schema.codec.SchedulerDecisionCodec;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.common.serialization.Deserializer;
import org.jboss.logging.Logger;

/**
 * Scheduler decisions: a pod-group status moves the job's gang (Inqueue lets its pods be
 * created). Binds and evictions reach the job through its pods' events instead. Dropped
 * ({@link PodGroupDecisions#notForJob}): decisions about a job that does not exist, of an older
 * scheduler epoch than the newest seen for the job (the fenced instance's), about a pod group the
 * job no longer has, or about an earlier incarnation of it.
 */
final class DecisionInput implements InputHandler {

    private static final Logger LOG = Logger.getLogger(DecisionInput.class);

    private final Deserializer<SchedulerDecision> deserializer;
    private final JobEngine engine;

    DecisionInput(Deserializer<SchedulerDecision> deserializer, JobEngine engine) {
        this.deserializer = deserializer;
        this.engine = engine;
    }

    @Override
    public void handle(String key, byte[] value, long timestamp) {
        SchedulerDecision decision = Decoding.decode(deserializer, Topics.SCHEDULER_DECISIONS.name(), value);
        String expected = Topics.jobKey(decision.getNamespace(), decision.getJob());
        if (!key.equals(expected)) {
            throw new IllegalArgumentException(
                    "key: record key \"" + key + "\" does not match the decision's job \"" + expected + "\"");
        }
        Optional<Input.PodGroupObserved> observed = SchedulerDecisionCodec.toInput(decision);
        if (observed.isEmpty()) {
            return;
        }
        JobEntry entry = engine.load(key);
        Optional<String> notForJob = PodGroupDecisions.notForJob(
                decision.getEpoch(),
                decision.getPodGroup(),
                decision.getPodGroupVersion(),
                entry.schedulerEpoch(),
                entry.info());
        if (notForJob.isPresent()) {
            LOG.debugf(
                    "decision for %s about pod group %s, epoch %d: %s",
                    key, decision.getPodGroup(), decision.getEpoch(), notForJob.get());
            return;
        }
        List<PodGroup.PodGroupCondition> conditions =
                SchedulerDecisionCodec.conditions((PodGroupStatus) decision.getDecision());
        boolean conditionsChanged = !conditions.equals(entry.podGroupConditions());
        JobEntry next = entry.withScheduler(decision.getEpoch(), conditions);
        JobEntry after = engine.apply(key, next, observed.get(), timestamp);
        if (conditionsChanged && after.info().podGroupPhase() == entry.info().podGroupPhase()) {
            // Same phase, new reasons (say, why it is still unschedulable): the pod group record says so.
            engine.publishPodGroup(key, after, observed.get().time(), timestamp);
        }
    }
}
