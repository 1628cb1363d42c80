package io.lahar.core.cron;

/** A cron expression robfig/cron's ParseStandard would refuse; the message is its reason. */
public final class ScheduleException extends IllegalArgumentException {

    public ScheduleException(String message) {
        super(message);
    }
}
