package io.lahar.core.cron;

import java.util.List;

/**
 * The result of one {@link CronInput}: the new state, the world's work, the events, and the
 * error Volcano's sync would return (an unknown time zone, a schedule that does not parse or never
 * fires; null when none).
 */
public record CronOutcome(CronJobInfo state, List<CronAction> actions, List<CronEvent> events, String error) {}
