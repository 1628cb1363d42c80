package io.lahar.core.scheduling.framework;

import io.lahar.core.resource.Resource;
import io.lahar.core.scheduling.api.QueueInfo;
import io.lahar.core.scheduling.api.QueueState;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A queue during a session, with its place in the hierarchy. {@code allocated} is what its jobs (and
 * its descendants' jobs) hold; {@code deserved} is set by the proportion plugin.
 */
public final class SessionQueue {
    private final QueueInfo info;
    private SessionQueue parent;
    private final List<SessionQueue> children = new ArrayList<>();
    private final List<SessionJob> jobs = new ArrayList<>();
    private Resource allocated = Resource.EMPTY;
    private Resource deserved;

    SessionQueue(QueueInfo info) {
        this.info = info;
    }

    public QueueInfo info() {
        return info;
    }

    public String name() {
        return info.name();
    }

    public SessionQueue parent() {
        return parent;
    }

    public List<SessionQueue> children() {
        return Collections.unmodifiableList(children);
    }

    public boolean isLeaf() {
        return children.isEmpty();
    }

    public boolean isRoot() {
        return info.parent() == null;
    }

    public boolean isOpen() {
        return info.state() == QueueState.Open;
    }

    public List<SessionJob> jobs() {
        return Collections.unmodifiableList(jobs);
    }

    public Resource allocated() {
        return allocated;
    }

    /** The deserved share the proportion plugin computed, or null when it is not enabled. */
    public Resource deserved() {
        return deserved;
    }

    public void setDeserved(Resource d) {
        deserved = d;
    }

    void link(SessionQueue p) {
        parent = p;
        p.children.add(this);
    }

    void addJob(SessionJob j) {
        jobs.add(j);
    }

    void addAllocated(Resource r) {
        for (SessionQueue q = this; q != null; q = q.parent) {
            q.allocated = q.allocated.add(r);
        }
    }

    void subAllocated(Resource r) {
        for (SessionQueue q = this; q != null; q = q.parent) {
            q.allocated = q.allocated.sub(r);
        }
    }

    @Override
    public String toString() {
        return info.name();
    }
}
