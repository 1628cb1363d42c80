package io.lahar.core.command;

import io.lahar.core.api.Action;
import java.util.Objects;

/**
 * One command about one Job, as it arrives on the job-commands topic. {@code time} is the
 * command's event time in epoch milliseconds: the only clock the core knows.
 */
public record JobRequest(String requestId, String sender, String namespace, String name, long time, Body body) {

    public JobRequest {
        Objects.requireNonNull(requestId, "requestId");
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(body, "body");
    }

    /** What the sender asks for. */
    public sealed interface Body {}

    /** Create the Job described by the manifest (YAML or JSON). */
    public record Submit(String manifest) implements Body {}

    /** Replace the Job's spec (scale: minAvailable, replicas, priorityClassName). */
    public record Update(String manifest) implements Body {}

    /** Delete the Job and everything it owns. */
    public record Delete(String message) implements Body {}

    /** A user action, as Volcano's bus Command carries it (vcctl job suspend/resume/...). */
    public record Act(Action action, String task, String pod, String message) implements Body {}

    /** The job's key on every job topic. */
    public String key() {
        return namespace + "/" + name;
    }

    /** The command's kind as results name it: SubmitJob, UpdateJob, DeleteJob or the action. */
    public String kind() {
        return switch (body) {
            case Submit s -> "SubmitJob";
            case Update u -> "UpdateJob";
            case Delete d -> "DeleteJob";
            case Act a -> a.action().value();
        };
    }
}
