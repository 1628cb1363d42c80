package io.lahar.streams.rest;

import io.lahar.core.admission.JobDefaults;
import io.lahar.core.api.JobFlow;
import io.lahar.core.api.JobSpec;
import io.lahar.core.api.JobTemplate;
import io.lahar.core.api.TaskSpec;
import io.lahar.core.flow.FlowInfo;
import java.util.List;

/** The rows of the JobFlow and JobTemplate lists (what {@code lahar flow list} / {@code jobtemplate list} print). */
final class FlowRows {

    private FlowRows() {}

    /** One JobFlow: its phase and how many of its jobs are in each of Volcano's status lists. */
    record FlowRow(
            String namespace,
            String name,
            String creationTimestamp,
            String phase,
            int jobs,
            int pendingJobs,
            int runningJobs,
            int completedJobs,
            int failedJobs,
            int terminatedJobs,
            int unKnowJobs)
            implements ListedObject {

        static FlowRow of(FlowInfo info) {
            JobFlow flow = info.flow();
            JobFlow.JobFlowStatus s = info.status();
            return new FlowRow(
                    flow.namespace(),
                    flow.name(),
                    flow.metadata().creationTimestamp(),
                    s.state() == null || s.state().phase() == null
                            ? "Pending"
                            : s.state().phase().name(),
                    flow.spec().flowsOrEmpty().size(),
                    size(s.pendingJobs()),
                    size(s.runningJobs()),
                    size(s.completedJobs()),
                    size(s.failedJobs()),
                    size(s.terminatedJobs()),
                    size(s.unKnowJobs()));
        }
    }

    /** One JobTemplate: its tasks, replicas, the minAvailable a job made from it gets, its queue. */
    record TemplateRow(
            String namespace,
            String name,
            String creationTimestamp,
            int tasks,
            int replicas,
            int minAvailable,
            String queue)
            implements ListedObject {

        static TemplateRow of(JobTemplate t) {
            JobSpec spec = t.spec() == null ? null : JobDefaults.apply(t.spec());
            List<TaskSpec> tasks = spec == null ? List.of() : spec.tasksOrEmpty();
            int replicas = tasks.stream()
                    .filter(x -> x != null)
                    .mapToInt(TaskSpec::replicasOrZero)
                    .sum();
            return new TemplateRow(
                    t.namespace(),
                    t.name(),
                    t.metadata().creationTimestamp(),
                    tasks.size(),
                    replicas,
                    spec == null || spec.minAvailable() == null ? replicas : spec.minAvailable(),
                    spec == null || spec.queue() == null ? "default" : spec.queue());
        }
    }

    private static int size(List<String> l) {
        return l == null ? 0 : l.size();
    }
}
