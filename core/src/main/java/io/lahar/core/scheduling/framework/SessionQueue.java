package io.lahar.core.scheduling.framework;

import io.lahar.core.api.QueueState;
import io.lahar.core.resource.Resource;
import io.lahar.core.scheduling.api.QueueInfo;
import io.lahar.core.scheduling.api.QueueStateMachine;
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
    private Resource capability;
    private String enforcedBy;

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

    /** Whether the queue takes new work: its state in effect is Open. */
    public boolean isOpen() {
        return state() == QueueState.Open;
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

    /** The capability a plugin enforces (its real capability), or null. */
    public Resource capability() {
        return capability;
    }

    /** The plugin whose share and limits the queue's status shows (proportion or capacity), or null. */
    public String enforcedBy() {
        return enforcedBy;
    }

    /** What a queue plugin enforces: the deserved share (null: none) and the real capability. */
    public void enforce(String plugin, Resource deserved, Resource capability) {
        this.enforcedBy = plugin;
        this.deserved = deserved;
        this.capability = capability;
    }

    /**
     * The state in effect: the asked state, Closing while a closed queue still has pod groups; an
     * open queue whose parent is closing or closed is closed by its parent (Volcano's
     * syncHierarchicalQueue), Closing or Closed by its own pod groups.
     */
    public QueueState state() {
        QueueState asked = info.state();
        if (asked == QueueState.Open && parent != null) {
            QueueState p = parent.state();
            if (p == QueueState.Closing || p == QueueState.Closed) asked = QueueState.Closed;
        }
        return QueueStateMachine.effective(asked, jobs.size());
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
