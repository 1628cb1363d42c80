package io.lahar.core.scheduling.framework;

import static io.lahar.core.scheduling.Fixtures.gang;
import static io.lahar.core.scheduling.Fixtures.key;
import static io.lahar.core.scheduling.Fixtures.nodes;
import static io.lahar.core.scheduling.Fixtures.run;
import static io.lahar.core.scheduling.Fixtures.running;
import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.api.PodGroupPhase;
import io.lahar.core.scheduling.Fixtures;
import io.lahar.core.scheduling.api.JobInfo;
import io.lahar.core.scheduling.api.QueueInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.CharRange;
import net.jqwik.api.constraints.Chars;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;

/**
 * A waiting gang's condition as the session writes it, read for its cause: the figures that move
 * while the gang waits drop out, the names and words that say what it waits for stay.
 */
class PodGroupConditionCauseTest {

    @Test
    void aQueuesAllocatedAmountIsAFigure() {
        SessionResult.PodGroupCondition before = overCapability("research", "1");
        SessionResult.PodGroupCondition after = overCapability("research", "2");

        assertThat(before.message()).isNotEqualTo(after.message());
        assertThat(before.cause())
                .isEqualTo(after.cause())
                .isEqualTo("#/# tasks in gang unschedulable: queue \"research\" over its capability:"
                        + " cpu allocated # + inqueue # + minResources # > capability #");
    }

    @Test
    void aNameWithDigitsIsNotAFigure() {
        assertThat(overCapability("q1", "1").cause())
                .isNotEqualTo(overCapability("q2", "1").cause());
    }

    @Test
    void whatTheNodesLackIsTheCauseAndHowMuchTheyHaveFreeIsNot() {
        // One 3-cpu task on two 2-cpu nodes: none fits, whatever runs there already.
        SessionResult.PodGroupCondition idle = unplaceable(List.of());
        SessionResult.PodGroupCondition busy = unplaceable(
                List.of(running("other", "default", 0, "1", "n0"), running("more", "default", 0, "1", "n1")));

        assertThat(idle.message()).contains("largest free 2 on n0");
        assertThat(busy.message()).contains("largest free 1 on n0");
        assertThat(idle.cause()).isEqualTo(busy.cause()).contains("(need #, largest free # on n0)");
    }

    @Test
    void aMessageWithoutFiguresIsItsOwnCause() {
        assertThat(SessionResult.PodGroupCondition.cause("queue \"default\" is Closed and takes no new work"))
                .isEqualTo("queue \"default\" is Closed and takes no new work");
        assertThat(SessionResult.PodGroupCondition.cause(null)).isNull();
    }

    /** The rule as a regular expression: a figure is what this replaces with {@code #}. */
    private static final Pattern FIGURE = Pattern.compile("(?<![\\w.-])\\d+(\\.\\d+)?[a-zA-Z]*");

    @Property(tries = 3000)
    void aCauseIsTheMessageWithWhatTheRuleCallsFiguresWrittenHash(
            @ForAll
                    @StringLength(max = 40)
                    @Chars({'0', '1', '9', '.', '-', '_', '#', ' ', '"', ':', '/', 'q', 'm', 'K', 'i'})
                    String message) {
        assertThat(SessionResult.PodGroupCondition.cause(message))
                .isEqualTo(FIGURE.matcher(message).replaceAll("#"));
    }

    @Property(tries = 3000)
    void twoMessagesHaveOneCauseExactlyWhenTheirCausesAreEqual(
            @ForAll @StringLength(max = 30) @Chars({'0', '1', '.', '-', '#', ' ', 'q', 'm'}) String message,
            @ForAll @StringLength(max = 30) @Chars({'0', '7', '.', '-', '#', ' ', 'q', 'm'}) String other,
            @ForAll @CharRange(from = '0', to = '9') char digit) {
        // Besides an unrelated message, the same message with its digits changed: most often one cause.
        for (String b : List.of(other, message.replace('1', digit), message.replace("1", digit + "." + digit))) {
            assertThat(SessionResult.PodGroupCondition.sameCause(message, b))
                    .as("%s / %s", message, b)
                    .isEqualTo(SessionResult.PodGroupCondition.cause(message)
                            .equals(SessionResult.PodGroupCondition.cause(b)));
        }
    }

    @Test
    void noMessageHasTheCauseOfAMissingOne() {
        assertThat(SessionResult.PodGroupCondition.sameCause(null, null)).isTrue();
        assertThat(SessionResult.PodGroupCondition.sameCause("1 node", null)).isFalse();
        assertThat(SessionResult.PodGroupCondition.sameCause(null, "1 node")).isFalse();
    }

    /** A 4-task gang of 1 cpu each in a queue capped at 4 cpu, with {@code used} cpu already running there. */
    private static SessionResult.PodGroupCondition overCapability(String queue, String used) {
        List<QueueInfo> queues = List.of(QueueInfo.of(queue, 1).withCapability(Map.of("cpu", "4")));
        List<JobInfo> jobs = List.of(running("holder", queue, 0, used, "n0"), gang("j", queue, 4, 4, "1"));
        return run(nodes(4, "4", "8Gi"), queues, jobs).conditions().get(key("j"));
    }

    private static SessionResult.PodGroupCondition unplaceable(List<JobInfo> others) {
        List<JobInfo> jobs = new ArrayList<>(others);
        // Already Inqueue: enqueue's overcommit gate is behind it, allocate meets the nodes.
        JobInfo j = gang("j", "default", 1, 1, "3");
        jobs.add(j.with(PodGroupPhase.Inqueue, j.tasks()));
        // No queue shares: what stops the task is the nodes alone.
        var conf = Fixtures.conf("""
                actions: "allocate"
                tiers:
                - plugins: [{name: gang}, {name: predicates}]
                """);
        return run(conf, nodes(2, "2", "8Gi"), List.of(QueueInfo.of("default", 1)), jobs)
                .conditions()
                .get(key("j"));
    }
}
