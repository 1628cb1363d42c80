/**
 * Volcano's CronJob (batch.volcano.sh/v1alpha1): robfig/cron's schedule syntax
 * ({@link io.lahar.core.cron.CronParser}), the schedule times
 * ({@link io.lahar.core.cron.ScheduleTimes}) and the controller as a pure state machine
 * ({@link io.lahar.core.cron.CronJobController}) driven by the clock ticks in the log.
 */
package io.lahar.core.cron;
