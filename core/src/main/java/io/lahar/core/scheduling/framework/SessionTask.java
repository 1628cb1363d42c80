package io.lahar.core.scheduling.framework;

import io.lahar.core.resource.Resource;
import io.lahar.core.scheduling.api.TaskInfo;
import io.lahar.core.scheduling.api.TaskStatus;

/** A task during a session: its snapshot info plus the status and node the session gives it. */
public final class SessionTask {
    private final TaskInfo info;
    private final SessionJob job;
    private final int index;
    private final int roleIndex;
    private final Resource request;
    private TaskStatus status;
    private SessionNode node;

    SessionTask(TaskInfo info, SessionJob job, int index, int roleIndex) {
        this.info = info;
        this.job = job;
        this.index = index;
        this.roleIndex = roleIndex;
        this.request = info.resreq().withPods(1);
        this.status = info.status();
    }

    public TaskInfo info() {
        return info;
    }

    public String name() {
        return info.name();
    }

    public SessionJob job() {
        return job;
    }

    /** Position in the job's task list (the creation order of its pods). */
    public int index() {
        return index;
    }

    int roleIndex() {
        return roleIndex;
    }

    /** The request as the node sees it: the pod's resources plus one pod. */
    public Resource request() {
        return request;
    }

    /** The pod's resource request (no pods dimension), as Volcano's Resreq. */
    public Resource resreq() {
        return info.resreq();
    }

    public boolean isBestEffort() {
        return info.resreq().isBestEffort();
    }

    public TaskStatus status() {
        return status;
    }

    public SessionNode node() {
        return node;
    }

    public int priority() {
        return info.priority();
    }

    void setStatus(TaskStatus s) {
        job.onStatusChange(this, status, s);
        status = s;
    }

    void setNode(SessionNode n) {
        node = n;
    }

    @Override
    public String toString() {
        return job.key() + "/" + info.name();
    }
}
