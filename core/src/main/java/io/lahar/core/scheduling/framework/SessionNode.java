package io.lahar.core.scheduling.framework;

import io.lahar.core.resource.Resource;
import io.lahar.core.scheduling.api.NodeInfo;
import io.lahar.core.scheduling.api.TaskStatus;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A node during a session, as Volcano's NodeInfo: what is idle, used, being released by evicted
 * pods, and promised to pipelined pods. Every task counts one against the pods dimension, so the
 * pod limit is checked like any other resource.
 */
public final class SessionNode {
    private final int index;
    private final NodeInfo info;
    private Resource idle;
    private Resource used;
    private Resource releasing = Resource.EMPTY;
    private Resource pipelined = Resource.EMPTY;
    private final List<SessionTask> tasks = new ArrayList<>();
    private final Session session;

    SessionNode(Session session, int index, NodeInfo info) {
        this.session = session;
        this.index = index;
        this.info = info;
        Resource other = info.otherUsed().withPods(info.otherPods());
        this.used = other;
        this.idle = info.allocatable().sub(other);
    }

    public int index() {
        return index;
    }

    public NodeInfo info() {
        return info;
    }

    public String name() {
        return info.name();
    }

    public Resource allocatable() {
        return info.allocatable();
    }

    public Resource idle() {
        return idle;
    }

    public Resource used() {
        return used;
    }

    public Resource releasing() {
        return releasing;
    }

    public Resource pipelined() {
        return pipelined;
    }

    /** What will be free once releasing pods are gone and pipelined pods have arrived. */
    public Resource futureIdle() {
        return idle.add(releasing).sub(pipelined);
    }

    /** Tasks on this node (holding it, releasing it, or pipelined onto it), in arrival order. */
    public List<SessionTask> tasks() {
        return Collections.unmodifiableList(tasks);
    }

    void addTask(SessionTask t) {
        Resource r = t.request();
        switch (t.status()) {
            case Pipelined -> pipelined = pipelined.add(r);
            case Releasing -> {
                releasing = releasing.add(r);
                idle = idle.sub(r);
                used = used.add(r);
            }
            default -> {
                idle = idle.sub(r);
                used = used.add(r);
            }
        }
        tasks.add(t);
        session.nodeChanged(index);
    }

    void removeTask(SessionTask t, TaskStatus statusOnNode) {
        Resource r = t.request();
        switch (statusOnNode) {
            case Pipelined -> pipelined = pipelined.sub(r);
            case Releasing -> {
                releasing = releasing.sub(r);
                idle = idle.add(r);
                used = used.sub(r);
            }
            default -> {
                idle = idle.add(r);
                used = used.sub(r);
            }
        }
        tasks.remove(t);
        session.nodeChanged(index);
    }

    @Override
    public String toString() {
        return info.name();
    }
}
