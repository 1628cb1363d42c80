package io.lahar.core.job;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import io.lahar.core.api.Action;
import io.lahar.core.api.Job;
import io.lahar.core.api.PodGroupPhase;

/**
 * Everything that can happen to a job, as a record: the only way time and the world reach the
 * engine. {@code time} is event time in epoch milliseconds, taken from the record, never from a
 * clock.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
    @JsonSubTypes.Type(value = Input.Submit.class, name = "Submit"),
    @JsonSubTypes.Type(value = Input.Update.class, name = "Update"),
    @JsonSubTypes.Type(value = Input.Delete.class, name = "Delete"),
    @JsonSubTypes.Type(value = Input.Command.class, name = "Command"),
    @JsonSubTypes.Type(value = Input.PodObserved.class, name = "PodObserved"),
    @JsonSubTypes.Type(value = Input.PodGroupObserved.class, name = "PodGroupObserved"),
    @JsonSubTypes.Type(value = Input.Tick.class, name = "Tick")
})
public sealed interface Input {

    long time();

    /** An admitted (validated and defaulted) job is submitted. */
    record Submit(Job job, long time) implements Input {
        public Submit {
            if (job == null || job.spec() == null) {
                throw new IllegalArgumentException("job: an admitted job with a spec is required");
            }
        }
    }

    /** An admitted update of the job's spec (scale: minAvailable, replicas, priorityClassName). */
    record Update(Job job, long time) implements Input {
        public Update {
            if (job == null || job.spec() == null) {
                throw new IllegalArgumentException("job: an admitted job with a spec is required");
            }
        }
    }

    /** The job object is deleted: everything it owns goes with it. */
    record Delete(long time) implements Input {}

    /**
     * A user command (Volcano's bus Command): {@code task} names the target of RestartTask,
     * {@code pod} (a pod name) the target of RestartPod; {@code message} says why, in the sender's
     * words, for the transition it causes (null when not given).
     */
    record Command(Action action, String task, String pod, String message, long time) implements Input {
        public Command {
            if (action == null) {
                throw new IllegalArgumentException("action: required");
            }
        }

        /** A command without a message. */
        public Command(Action action, String task, String pod, long time) {
            this(action, task, pod, null, time);
        }
    }

    /**
     * The world reports a pod: its phase, the first container's exit code when it terminated,
     * its containers' highest restart count, the node it is bound to (null when unbound or not
     * said), or that it is gone ({@code deleted}).
     */
    record PodObserved(
            String pod,
            String task,
            int index,
            int version,
            PodPhase phase,
            Integer exitCode,
            int restartCount,
            boolean deleted,
            long time,
            String node)
            implements Input {

        /** A report that names no node. */
        public PodObserved(
                String pod,
                String task,
                int index,
                int version,
                PodPhase phase,
                Integer exitCode,
                int restartCount,
                boolean deleted,
                long time) {
            this(pod, task, index, version, phase, exitCode, restartCount, deleted, time, null);
        }

        public PodObserved {
            if (pod == null || pod.isEmpty()) {
                throw new IllegalArgumentException("pod: the pod's name is required");
            }
            if (task == null || task.isEmpty()) {
                throw new IllegalArgumentException("task: the pod's task (volcano.sh/task-spec) is required");
            }
            if (phase == null && !deleted) {
                throw new IllegalArgumentException("phase: required unless the pod is deleted");
            }
        }
    }

    /**
     * The scheduler moved the job's pod group (Pending, Inqueue, Running, Unknown, ...), or said
     * anew why it cannot place it: {@code reason}/{@code message} are its Unschedulable condition,
     * null when it has none. The engine shows them on a Pending job ("why is my job pending").
     */
    record PodGroupObserved(PodGroupPhase phase, long time, String reason, String message) implements Input {
        public PodGroupObserved {
            if (phase == null) {
                throw new IllegalArgumentException("phase: required");
            }
        }

        /** A phase change without a condition. */
        public PodGroupObserved(PodGroupPhase phase, long time) {
            this(phase, time, null, null);
        }
    }

    /** Time passes: delayed actions and the TTL fire when due. */
    record Tick(long time) implements Input {}
}
