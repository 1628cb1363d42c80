package io.lahar.cli.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.cli.ReplayCommand;
import io.lahar.schema.JobCommand;
import io.lahar.schema.JobTransition;
import io.lahar.schema.Queue;
import io.lahar.schema.SubmitJob;
import io.lahar.schema.Topics;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class QueueHistoryTest {

    private static final long T0 = 1_700_000_000_000L;

    private static JobCommand submitTo(String queue, String name, String requestId, long time) {
        String manifest = ReplayScript.manifest(name).replace("\nspec:\n", "\nspec:\n  queue: " + queue + "\n");
        return JobCommand.newBuilder()
                .setRequestId(requestId)
                .setSender("test")
                .setNamespace("default")
                .setName(name)
                .setTime(Instant.ofEpochMilli(time))
                .setCommand(new SubmitJob(manifest))
                .build();
    }

    private static Queue queue(String name, long time) {
        return Queue.newBuilder()
                .setName(name)
                .setTime(Instant.ofEpochMilli(time))
                .build();
    }

    private static List<String> phasesOf(QueueHistory queues, String name, long submittedAt) {
        ReplayInput in = new ReplayInput(
                Topics.JOB_COMMANDS.name(),
                0,
                0,
                submittedAt,
                Topics.jobKey("default", name),
                submitTo("research", name, "q-" + submittedAt, submittedAt));
        List<JobReplay.Step> steps = ReplayCommand.replay("default", name, 60_000, queues, List.of(in));
        return ReplayCommand.transitions(steps).stream()
                .map(JobTransition::getTo)
                .toList();
    }

    @Test
    void aCommandIsAdmittedAgainstTheQueuesAsTheTopicHadThemAtItsTime() {
        QueueHistory history = new QueueHistory(List.of(
                new QueueHistory.Change(T0, "research", queue("research", T0)),
                new QueueHistory.Change(T0 + 100, "research", null)));

        assertThat(phasesOf(history, "before", T0 - 1))
                .as("before the queue existed")
                .isEmpty();
        assertThat(phasesOf(history, "during", T0 + 50)).containsExactly("Pending");
        assertThat(phasesOf(history, "after", T0 + 200))
                .as("after its tombstone")
                .isEmpty();
    }

    @Test
    void aTombstoneOfTheDefaultQueueLeavesTheBuiltInOne() {
        QueueHistory history = new QueueHistory(List.of(new QueueHistory.Change(T0, "default", null)));

        assertThat(history.admissionAt(T0 + 1).queue("default")).isPresent();
        assertThat(phasesOf(history, "still-default", T0 + 1).isEmpty())
                .as("a research job without its queue")
                .isTrue();
    }
}
