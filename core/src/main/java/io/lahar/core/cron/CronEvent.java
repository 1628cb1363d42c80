package io.lahar.core.cron;

/**
 * What Volcano's CronJob controller records as a Kubernetes Event, with its type ({@code Normal}
 * or {@code Warning}), reason ({@code SuccessfulCreate}, {@code ForbidConcurrent},
 * {@code TooManyMissedTimes}, ...) and message.
 */
public record CronEvent(String type, String reason, String message, long time) {

    public static final String NORMAL = "Normal";
    public static final String WARNING = "Warning";
}
