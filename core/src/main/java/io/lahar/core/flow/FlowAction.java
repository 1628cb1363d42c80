package io.lahar.core.flow;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import io.lahar.core.api.Job;

/**
 * What the flow engine asks of the world. The streams app (or the simulator) carries these out;
 * the engine learns the result only from later {@link FlowInput}s.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
    @JsonSubTypes.Type(value = FlowAction.CreateJob.class, name = "CreateJob"),
    @JsonSubTypes.Type(value = FlowAction.DeleteJob.class, name = "DeleteJob")
})
public sealed interface FlowAction {

    /** Create the job: the template with the flow's patch applied, owned and labelled by the flow. */
    record CreateJob(Job job) implements FlowAction {}

    /** Delete a job the flow created (retry, jobRetainPolicy delete, the flow deleted). */
    record DeleteJob(String name, String reason) implements FlowAction {}
}
