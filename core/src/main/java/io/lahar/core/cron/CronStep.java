package io.lahar.core.cron;

import io.lahar.core.api.JobPhase;
import java.time.Duration;
import java.time.Instant;

/** One line of a CronJob simulation script. */
public sealed interface CronStep {

    int line();

    /** Time passes by {@code by}: the CronJob wakes at each scheduled time on the way, as the clock ticks wake it. */
    record AdvanceStep(int line, Duration by) implements CronStep {}

    /** Time passes until {@code to}. */
    record TickStep(int line, Instant to) implements CronStep {}

    /** The job {@code job} (its name, or {@code latest}: the last one created) reached {@code phase}. */
    record JobPhaseStep(int line, String job, JobPhase phase) implements CronStep {}

    /** Someone deleted the job {@code job}. */
    record JobDeletedStep(int line, String job) implements CronStep {}

    /** The CronJob is suspended ({@code true}) or resumed. */
    record SuspendStep(int line, boolean suspend) implements CronStep {}

    /** {@code {"command":"delete"}}: the CronJob is deleted. */
    record DeleteStep(int line) implements CronStep {}
}
