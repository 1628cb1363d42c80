package io.lahar.core.scheduling.framework;

import io.lahar.core.resource.Resource;
import io.lahar.core.scheduling.api.NodeInfo;
import io.lahar.core.scheduling.api.TaskStatus;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A node during a session, as Volcano's NodeInfo: what is idle, used, being released by evicted
 * pods, and promised to pipelined pods. Every task counts one against the pods dimension, which
 * preempt and reclaim weigh like any other resource; allocate and backfill check the pod limit as
 * Volcano's predicates do instead, against the pods on the node ({@link #podsFull}).
 */
public final class SessionNode {
    /** Volcano's NodePodNumberExceeded: the reason a node with no pod slot left fails. */
    public static final String POD_NUMBER_EXCEEDED = "node(s) pod number exceeded";

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

    /**
     * The pods on the node as Volcano's predicates count them (its nodeInfo's pods): the foreign
     * ones and every task on it, holding it, releasing it or pipelined onto it. A task evicted in
     * this session still counts while it releases the node (Volcano's evict takes it off there at
     * once, so a later action of the session could bind a pod the kubelet has no slot for).
     */
    public int pods() {
        return info.otherPods() + tasks.size();
    }

    /** Whether the node's pods reach its allocatable pods (Volcano's pod-number predicate). */
    public boolean podsFull() {
        return pods() >= info.allocatable().pods();
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
