package io.lahar.core.flow;

import io.lahar.core.api.JobPhase;
import io.lahar.core.api.JobTemplate;
import io.lahar.core.job.PodPhase;
import java.time.Duration;

/** One line of a flow simulation script. */
public sealed interface FlowStep {

    int line();

    /** The job made from template {@code template} reached {@code phase}. */
    record JobPhaseStep(int line, String template, JobPhase phase) implements FlowStep {}

    /** The pods of task {@code task} of the job made from {@code template} reached {@code phase} (taskStatus probes). */
    record TaskPhaseStep(int line, String template, String task, PodPhase phase) implements FlowStep {}

    /** {@code {"command":"delete"}}: the JobFlow is deleted. */
    record DeleteStep(int line) implements FlowStep {}

    /** Time passes (retry backoffs fire). */
    record AdvanceStep(int line, Duration by) implements FlowStep {}

    /** A JobTemplate is created or updated. */
    record TemplateStep(int line, JobTemplate template) implements FlowStep {}
}
