package io.lahar.scheduler.loop;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.schema.PodGroupCondition;
import io.lahar.schema.PodGroupStatus;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** When a pod group's status is written again: only when something a reader acts on changed. */
class SessionDecisionsTest {

    private static final Instant T0 = Instant.parse("2026-12-06T00:00:00Z");
    private static final String OVER = "100/100 tasks in gang unschedulable: queue \"default\" over its capability:"
            + " cpu allocated %s + inqueue %s + minResources 100 > capability 4k";

    @Test
    void theSessionAndTheTimeOfTheConditionAloneChangeNothing() {
        assertThat(SessionDecisions.sameStatus(
                        pending("1-1", T0, OVER.formatted("3990", "0")),
                        pending("1-2", T0.plusSeconds(30), OVER.formatted("3990", "0"))))
                .isTrue();
    }

    @Test
    void aMessageThatChangedOnlyInItsFiguresIsRefreshedOnlyAfterAWhile() {
        PodGroupStatus written = pending("1-1", T0, OVER.formatted("3990", "0"));

        assertThat(SessionDecisions.sameStatus(
                        written, pending("1-2", T0.plusSeconds(9), OVER.formatted("3811", "100"))))
                .as("the queue's figures moved between two sessions")
                .isTrue();
        assertThat(SessionDecisions.sameStatus(
                        written,
                        pending("1-9", T0.plus(SessionDecisions.FIGURES_REFRESH), OVER.formatted("3811", "100"))))
                .as("once the written figures are old enough")
                .isFalse();
    }

    @Test
    void aNewCauseIsWrittenAtOnce() {
        assertThat(SessionDecisions.sameStatus(
                        pending("1-1", T0, OVER.formatted("3990", "0")),
                        pending(
                                "1-2",
                                T0.plusSeconds(1),
                                "100/100 tasks in gang unschedulable: 40 node(s) resource fit failed")))
                .isFalse();
        assertThat(SessionDecisions.sameStatus(
                        pending("1-1", T0, "queue \"q1\" over its capability: cpu allocated 4"),
                        pending("1-2", T0.plusSeconds(1), "queue \"q2\" over its capability: cpu allocated 4")))
                .as("digits in a name are not figures")
                .isFalse();
        assertThat(SessionDecisions.sameStatus(
                        pending("1-1", T0, OVER.formatted("3990", "0")),
                        new PodGroupStatus("Inqueue", List.of(), 0, 0, 0)))
                .isFalse();
    }

    private static PodGroupStatus pending(String session, Instant time, String message) {
        return new PodGroupStatus(
                "Pending",
                List.of(new PodGroupCondition("Unschedulable", "True", session, time, "NotEnoughResources", message)),
                0,
                0,
                0);
    }
}
