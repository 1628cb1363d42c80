package io.lahar.core.scheduling.api;

import static io.lahar.core.api.QueueState.Closed;
import static io.lahar.core.api.QueueState.Closing;
import static io.lahar.core.api.QueueState.Open;
import static io.lahar.core.api.QueueState.Unknown;

import io.lahar.core.api.QueueState;

/** Volcano's queue state machine, over the API's {@link QueueState}. */
public final class QueueStateMachine {

    private QueueStateMachine() {}

    /** What Volcano's queue controller is asked to do to a queue (bus/v1alpha1 actions). */
    public enum Action {
        /** OpenQueueAction. */
        OPEN,
        /** CloseQueueAction. */
        CLOSE,
        /** Any other action: the controller syncs the queue with the state its record holds. */
        SYNC
    }

    /**
     * Volcano's queue state machine (pkg/controllers/queue/state: open.go, closing.go, closed.go,
     * unknown.go): the state a queue in state {@code current} moves to under {@code action}.
     *
     * @param recorded  for SYNC, the state the queue's record holds (null: none)
     * @param podGroups how many pod groups, in any phase, are in the queue
     */
    public static QueueState next(QueueState current, Action action, QueueState recorded, int podGroups) {
        QueueState drained = podGroups == 0 ? Closed : Closing;
        return switch (action) {
            case OPEN -> Open;
            case CLOSE -> current == Closed ? Closed : drained;
            case SYNC -> {
                if (recorded == Open || (recorded == null && current == Open)) yield Open;
                yield switch (current) {
                    case Open, Unknown -> recorded == Closed ? drained : Unknown;
                    case Closing -> recorded == Closing ? drained : Unknown;
                    case Closed -> recorded == Closed ? Closed : Unknown;
                };
            }
        };
    }

    /**
     * The state in effect for a queue whose record asks for {@code asked}: a queue asked to close
     * is Closing while pod groups of it remain and Closed once they are gone (the controller's
     * CloseQueueAction, then its syncs); an open queue is Open.
     *
     * @param podGroups how many pod groups (in any phase) are in the queue
     */
    public static QueueState effective(QueueState asked, int podGroups) {
        return switch (asked) {
            case Open -> Open;
            case Closed, Closing -> next(Open, Action.CLOSE, null, podGroups);
            case Unknown -> Unknown;
        };
    }
}
