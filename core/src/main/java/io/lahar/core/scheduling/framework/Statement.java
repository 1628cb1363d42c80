package io.lahar.core.scheduling.framework;

import io.lahar.core.scheduling.api.TaskStatus;
import java.util.ArrayList;
import java.util.List;

/**
 * The operations for one gang, as Volcano's Statement: each is applied to the session at once (so
 * later decisions see it) and either all are committed or all are undone in reverse order.
 */
public final class Statement {

    public enum Kind {
        ALLOCATE,
        PIPELINE,
        UNPIPELINE,
        EVICT
    }

    public record Operation(
            Kind kind, SessionTask task, SessionNode node, TaskStatus previous, String reason, String action) {}

    private final Session ssn;
    private final List<Operation> operations = new ArrayList<>();
    private boolean closed;

    Statement(Session ssn) {
        this.ssn = ssn;
    }

    public void allocate(SessionTask task, SessionNode node) {
        check();
        operations.add(ssn.applyAllocate(task, node));
    }

    public void pipeline(SessionTask task, SessionNode node) {
        check();
        operations.add(ssn.applyPipeline(task, node));
    }

    /** Takes a pipelined task off its node, pending again (Volcano's Statement.UnPipeline). */
    public void unpipeline(SessionTask task) {
        check();
        operations.add(ssn.applyUnpipeline(task));
    }

    public void evict(SessionTask victim, String reason) {
        check();
        operations.add(ssn.applyEvict(victim, reason));
    }

    public List<Operation> operations() {
        return List.copyOf(operations);
    }

    public boolean isEmpty() {
        return operations.isEmpty();
    }

    /** Where the statement stands: {@link #undoTo} goes back here (Volcano's statement per node, merged or discarded). */
    public int mark() {
        check();
        return operations.size();
    }

    /** Undoes the operations made since {@code mark}, last first; the statement stays open. */
    public void undoTo(int mark) {
        check();
        for (int i = operations.size() - 1; i >= mark; i--) {
            ssn.undo(operations.remove(i));
        }
    }

    /** Keeps every operation: they become the session's decisions. */
    public void commit() {
        check();
        closed = true;
        ssn.recordCommitted(operations);
    }

    /** Undoes every operation, last first. */
    public void discard() {
        check();
        closed = true;
        for (int i = operations.size() - 1; i >= 0; i--) {
            ssn.undo(operations.get(i));
        }
    }

    private void check() {
        if (closed) {
            throw new IllegalStateException("statement already committed or discarded");
        }
    }
}
