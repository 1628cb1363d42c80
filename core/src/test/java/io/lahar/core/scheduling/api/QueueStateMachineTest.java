package io.lahar.core.scheduling.api;

import static io.lahar.core.scheduling.Fixtures.gang;
import static io.lahar.core.scheduling.Fixtures.key;
import static io.lahar.core.scheduling.Fixtures.nodes;
import static io.lahar.core.scheduling.Fixtures.run;
import static io.lahar.core.scheduling.Fixtures.running;
import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.api.QueueState;
import io.lahar.core.scheduling.api.QueueStateMachine.Action;
import io.lahar.core.scheduling.framework.SessionResult;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The queue state machine after Volcano's pkg/controllers/queue/state tests: every row of
 * open_test.go, closing_test.go, closed_test.go and unknown_test.go (TestXState_OpenQueueAction,
 * _CloseQueueAction, _SyncQueueAction), with Volcano's row names; then Open to Closing to Closed
 * in a session, and a closed parent closing its children (queue_controller_action.go's
 * syncHierarchicalQueue).
 */
class QueueStateMachineTest {

    record Row(
            String table,
            String name,
            QueueState current,
            Action action,
            QueueState recorded,
            int podGroups,
            QueueState expected) {
        @Override
        public String toString() {
            return table + " " + name;
        }
    }

    static final QueueState GARBAGE = null; // an unrecognised or empty recorded state

    static Stream<Row> rows() {
        QueueState open = QueueState.Open;
        QueueState closing = QueueState.Closing;
        QueueState closed = QueueState.Closed;
        QueueState unknown = QueueState.Unknown;
        return Stream.of(
                new Row(
                        "TestOpenState_OpenQueueAction",
                        "OpenQueueAction: Open queue",
                        open,
                        Action.OPEN,
                        open,
                        0,
                        open),
                new Row(
                        "TestOpenState_CloseQueueAction",
                        "CloseQueueAction: Open queue with no PodGroups",
                        open,
                        Action.CLOSE,
                        open,
                        0,
                        closed),
                new Row(
                        "TestOpenState_CloseQueueAction",
                        "CloseQueueAction: Open queue with running PodGroups",
                        open,
                        Action.CLOSE,
                        open,
                        3,
                        closing),
                new Row(
                        "TestOpenState_SyncQueueAction",
                        "SyncQueueAction: Open queue with empty spec state",
                        open,
                        Action.SYNC,
                        null,
                        0,
                        open),
                new Row(
                        "TestOpenState_SyncQueueAction",
                        "SyncQueueAction: Open queue with spec state open",
                        open,
                        Action.SYNC,
                        open,
                        0,
                        open),
                new Row(
                        "TestOpenState_SyncQueueAction",
                        "SyncQueueAction: Open queue with spec state Closed and no PodGroups",
                        open,
                        Action.SYNC,
                        closed,
                        0,
                        closed),
                new Row(
                        "TestOpenState_SyncQueueAction",
                        "SyncQueueAction: Open queue with spec state Closed and PodGroups",
                        open,
                        Action.SYNC,
                        closed,
                        1,
                        closing),
                new Row(
                        "TestOpenState_SyncQueueAction",
                        "SyncQueueAction: Open queue with unrecognised spec state",
                        open,
                        Action.SYNC,
                        unknown,
                        0,
                        unknown),
                new Row(
                        "TestClosingState_OpenQueueAction",
                        "OpenQueueAction: Closing queue",
                        closing,
                        Action.OPEN,
                        closing,
                        0,
                        open),
                new Row(
                        "TestClosingState_CloseQueueAction",
                        "CloseQueueAction: Closing queue with no podgroup",
                        closing,
                        Action.CLOSE,
                        closing,
                        0,
                        closed),
                new Row(
                        "TestClosingState_CloseQueueAction",
                        "CloseQueueAction: Closing queue with running podgroup",
                        closing,
                        Action.CLOSE,
                        closing,
                        1,
                        closing),
                new Row(
                        "TestClosingState_SyncQueueAction",
                        "SyncQueueAction: Spec state open",
                        closing,
                        Action.SYNC,
                        open,
                        0,
                        open),
                new Row(
                        "TestClosingState_SyncQueueAction",
                        "SyncQueueAction: Spec state closing with no podgroups",
                        closing,
                        Action.SYNC,
                        closing,
                        0,
                        closed),
                new Row(
                        "TestClosingState_SyncQueueAction",
                        "SyncQueueAction: Spec state closing with podgroups",
                        closing,
                        Action.SYNC,
                        closing,
                        1,
                        closing),
                new Row(
                        "TestClosingState_SyncQueueAction",
                        "SyncQueueAction: Spec state unknown/garbage",
                        closing,
                        Action.SYNC,
                        GARBAGE,
                        0,
                        unknown),
                new Row(
                        "TestClosedState_OpenQueueAction",
                        "OpenQueueAction: Closed queue",
                        closed,
                        Action.OPEN,
                        closed,
                        0,
                        open),
                new Row(
                        "TestClosedState_CloseQueueAction",
                        "CloseQueueAction: Closed queue",
                        closed,
                        Action.CLOSE,
                        closed,
                        0,
                        closed),
                new Row(
                        "TestClosedState_SyncQueueAction",
                        "SyncQueueAction: Spec state open",
                        closed,
                        Action.SYNC,
                        open,
                        0,
                        open),
                new Row(
                        "TestClosedState_SyncQueueAction",
                        "SyncQueueAction: Spec state closed",
                        closed,
                        Action.SYNC,
                        closed,
                        0,
                        closed),
                new Row(
                        "TestClosedState_SyncQueueAction",
                        "SyncQueueAction: Spec state unknown/garbage",
                        closed,
                        Action.SYNC,
                        GARBAGE,
                        0,
                        unknown),
                new Row(
                        "TestUnknownState_OpenQueueAction",
                        "OpenQueueAction: Unknown state",
                        unknown,
                        Action.OPEN,
                        unknown,
                        0,
                        open),
                new Row(
                        "TestUnknownState_CloseQueueAction",
                        "CloseQueueAction: no podgroups",
                        unknown,
                        Action.CLOSE,
                        unknown,
                        0,
                        closed),
                new Row(
                        "TestUnknownState_CloseQueueAction",
                        "CloseQueueAction: with podgroups",
                        unknown,
                        Action.CLOSE,
                        unknown,
                        1,
                        closing),
                new Row(
                        "TestUnknownState_SyncQueueAction",
                        "SyncQueueAction: spec open",
                        unknown,
                        Action.SYNC,
                        open,
                        0,
                        open),
                new Row(
                        "TestUnknownState_SyncQueueAction",
                        "SyncQueueAction: spec closed, podgroups",
                        unknown,
                        Action.SYNC,
                        closed,
                        1,
                        closing),
                new Row(
                        "TestUnknownState_SyncQueueAction",
                        "SyncQueueAction: spec unknown",
                        unknown,
                        Action.SYNC,
                        unknown,
                        0,
                        unknown));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void asVolcanosQueueStateTables(Row r) {
        assertThat(QueueStateMachine.next(r.current(), r.action(), r.recorded(), r.podGroups()))
                .isEqualTo(r.expected());
    }

    private static Map<String, QueueState> states(SessionResult r) {
        return r.queues().stream()
                .collect(Collectors.toMap(SessionResult.QueueStatus::name, SessionResult.QueueStatus::state));
    }

    /** Open, then closed with a running job: Closing, taking no new work; Closed once its pod groups are gone. */
    @Test
    void aClosedQueueIsClosingWhileItHasPodGroupsThenClosed() {
        QueueInfo open = QueueInfo.of("q", 1);
        SessionResult before = run(nodes(2, "2", "4Gi"), List.of(open), List.of(gang("j", "q", 1, 1, "1")));
        assertThat(states(before)).containsEntry("q", QueueState.Open);

        QueueInfo closed = open.withState(QueueState.Closed);
        SessionResult draining = run(
                nodes(2, "2", "4Gi"),
                List.of(closed),
                List.of(running("r", "q", 0, "1", "n0"), gang("j", "q", 1, 1, "1")));
        assertThat(states(draining)).containsEntry("q", QueueState.Closing);
        assertThat(draining.bindings()).isEmpty();
        assertThat(draining.conditions().get(key("j")).message())
                .contains("queue \"q\" is Closing and takes no new work");

        SessionResult drained = run(nodes(2, "2", "4Gi"), List.of(closed), List.of());
        assertThat(states(drained)).containsEntry("q", QueueState.Closed);
    }

    /** syncHierarchicalQueue: a closing or closed parent closes its open children (eng holds no pod group itself: Closed). */
    @Test
    void aClosedParentClosesItsChildren() {
        List<QueueInfo> queues = List.of(
                QueueInfo.of("eng", 1).withState(QueueState.Closed),
                QueueInfo.of("ml", 1).withParent("eng"),
                QueueInfo.of("web", 1).withParent("eng"),
                QueueInfo.of("ops", 1));
        SessionResult r = run(
                nodes(2, "2", "4Gi"),
                queues,
                List.of(running("m", "ml", 0, "1", "n0"), gang("w", "web", 1, 1, "1"), gang("o", "ops", 1, 1, "1")));
        assertThat(states(r))
                .containsEntry("eng", QueueState.Closed)
                .containsEntry("ml", QueueState.Closing)
                .containsEntry("web", QueueState.Closing)
                .containsEntry("ops", QueueState.Open);
        assertThat(r.bindingsOf(key("w"))).isEmpty();
        assertThat(r.bindingsOf(key("o"))).hasSize(1);
    }
}
