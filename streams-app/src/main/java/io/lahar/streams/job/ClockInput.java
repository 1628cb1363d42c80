package io.lahar.streams.job;

import io.lahar.core.job.Input;
import io.lahar.core.job.TimerClock;
import io.lahar.schema.Tick;
import io.lahar.schema.Topics;
import java.util.OptionalLong;
import org.apache.kafka.common.serialization.Deserializer;
import org.jboss.logging.Logger;

/**
 * Clock ticks: every job of this partition with a timer due by the tick's time gets a
 * {@link Input.Tick}. Found by a range scan of the timer index, at most {@code budget} jobs per
 * tick so one tick after a long pause cannot stall the partition; the rest fire on the next ticks.
 * Time comes from the tick record, so a replay fires the same timers at the same points.
 */
final class ClockInput implements InputHandler {

    private static final Logger LOG = Logger.getLogger(ClockInput.class);

    private final Deserializer<Tick> deserializer;
    private final JobEngine engine;
    private final TimerIndex timers;
    private final int budget;
    private final long maxStep;

    /**
     * @param maxStep the most the timer clock moves on one tick ({@link TimerClock#advance})
     */
    ClockInput(Deserializer<Tick> deserializer, JobEngine engine, TimerIndex timers, int budget, long maxStep) {
        this.deserializer = deserializer;
        this.engine = engine;
        this.timers = timers;
        this.budget = budget;
        this.maxStep = maxStep;
    }

    @Override
    public void handle(String key, byte[] value, long timestamp) {
        Tick tick = Decoding.decode(deserializer, Topics.CLOCK.name(), value);
        OptionalLong next = TimerClock.advance(timers.clock(), tick.getTime().toEpochMilli(), maxStep);
        if (next.isEmpty()) {
            return;
        }
        long time = next.getAsLong();
        timers.clock(time);
        for (TimerIndex.Due due : timers.due(time, budget)) {
            try {
                engine.apply(due.job(), engine.load(due.job()), new Input.Tick(time), timestamp);
            } catch (RuntimeException e) {
                // One job the engine cannot handle must not hold back the others due on this tick,
                // nor fail again on every tick: it leaves the index until its next input.
                LOG.errorf(
                        e,
                        "timers of job %s due at %d could not fire at %d; the job leaves the timer index",
                        due.job(),
                        due.due(),
                        time);
                timers.remove(due);
            }
        }
    }
}
