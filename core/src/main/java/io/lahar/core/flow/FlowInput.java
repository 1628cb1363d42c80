package io.lahar.core.flow;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import io.lahar.core.api.JobFlow;
import io.lahar.core.api.JobPhase;
import io.lahar.core.api.JobStatus;
import io.lahar.core.api.JobTemplate;
import java.util.List;
import java.util.Map;

/**
 * Everything that can happen to a JobFlow, as a record: the only way time and the world reach the
 * flow engine. {@code time} is event time in epoch milliseconds, taken from the record.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
    @JsonSubTypes.Type(value = FlowInput.Submit.class, name = "Submit"),
    @JsonSubTypes.Type(value = FlowInput.JobStatusObserved.class, name = "JobStatusObserved"),
    @JsonSubTypes.Type(value = FlowInput.JobRejected.class, name = "JobRejected"),
    @JsonSubTypes.Type(value = FlowInput.Delete.class, name = "Delete"),
    @JsonSubTypes.Type(value = FlowInput.Tick.class, name = "Tick"),
    @JsonSubTypes.Type(value = FlowInput.TemplateChanged.class, name = "TemplateChanged")
})
public sealed interface FlowInput {

    long time();

    /**
     * An admitted (defaulted) JobFlow is created, with the JobTemplates of its namespace as they
     * are now; templates arriving later come as {@link TemplateChanged}.
     */
    record Submit(JobFlow flow, List<JobTemplate> templates, long time) implements FlowInput {
        public Submit {
            if (flow == null
                    || flow.spec() == null
                    || flow.metadata() == null
                    || flow.metadata().name() == null) {
                throw new IllegalArgumentException("flow: an admitted JobFlow with a name and a spec is required");
            }
            templates = templates == null ? List.of() : List.copyOf(templates);
        }
    }

    /**
     * The world reports a job the flow created: its phase, its pods per task and pod phase
     * (Volcano's taskStatusCount), and its own retryCount.
     */
    record JobStatusObserved(
            String job, JobPhase phase, Map<String, JobStatus.TaskState> taskStatusCount, int retryCount, long time)
            implements FlowInput {
        public JobStatusObserved {
            if (job == null || job.isEmpty()) {
                throw new IllegalArgumentException("job: the job's name is required");
            }
            if (phase == null) {
                throw new IllegalArgumentException("phase: required");
            }
            taskStatusCount = taskStatusCount == null ? Map.of() : Map.copyOf(taskStatusCount);
        }
    }

    /**
     * Job admission refused to create a job the flow asked for (the flow's create command was
     * answered with these reasons): the job was never created, and counts as Failed.
     */
    record JobRejected(String job, List<String> reasons, long time) implements FlowInput {
        public JobRejected {
            if (job == null || job.isEmpty()) {
                throw new IllegalArgumentException("job: the job's name is required");
            }
            reasons = reasons == null ? List.of() : List.copyOf(reasons);
        }
    }

    /** The JobFlow is deleted: the jobs it owns go with it. */
    record Delete(long time) implements FlowInput {}

    /** Time passes: retry backoffs fire when due. */
    record Tick(long time) implements FlowInput {}

    /** A JobTemplate was created or updated: jobs not created yet use the new spec. */
    record TemplateChanged(JobTemplate template, long time) implements FlowInput {
        public TemplateChanged {
            if (template == null
                    || template.metadata() == null
                    || template.metadata().name() == null) {
                throw new IllegalArgumentException("template: a JobTemplate with a name is required");
            }
        }
    }
}
