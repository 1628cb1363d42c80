package io.lahar.core.job;

import java.util.OptionalLong;

/**
 * The clock timers fire on, moved by tick records. One rule for the streams app and
 * {@code lahar replay}, so replay fires the same timers at the same points.
 */
public final class TimerClock {

    private TimerClock() {}

    /**
     * The clock's time after a tick, empty when the tick is late or repeated (two tickers, a
     * replay): time does not go back. After an outage (a jump in time) it moves at most
     * {@code maxStep}, so the deadlines that passed meanwhile expire over the following ticks, in
     * due order, instead of all at once.
     *
     * @param last      the clock's time, empty before the first tick
     * @param announced the tick's time
     */
    public static OptionalLong advance(OptionalLong last, long announced, long maxStep) {
        if (last.isEmpty()) {
            return OptionalLong.of(announced);
        }
        long now = last.getAsLong();
        if (announced <= now) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(announced - now > maxStep ? now + maxStep : announced);
    }
}
