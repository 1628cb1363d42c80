package io.lahar.cli.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.cli.ReplayCommand;
import io.lahar.schema.Bind;
import io.lahar.schema.JobAction;
import io.lahar.schema.JobActionCommand;
import io.lahar.schema.JobCommand;
import io.lahar.schema.JobTransition;
import io.lahar.schema.SchedulerDecision;
import io.lahar.schema.Topics;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class JobReplayTest {

    private static final String NAME = "replayed";
    private static final String KEY = Topics.jobKey("default", NAME);
    private static final long T0 = 1_700_000_000_000L;

    private final List<ReplayInput> inputs = new ArrayList<>();

    private void add(String topic, Object value, long time) {
        long offset = inputs.stream().filter(i -> i.topic().equals(topic)).count();
        inputs.add(new ReplayInput(topic, 2, offset, time, topic.equals(Topics.CLOCK.name()) ? "2" : KEY, value));
    }

    @Test
    void runsTheJobToCompletionAndSaysWhatEachInputDid() {
        JobCommand submit = ReplayScript.submit("r-1", NAME, T0);
        String group = ReplayScript.podGroup(submit);
        add(Topics.POD_EVENTS.name(), ReplayScript.pod(NAME, "Running", null, T0 - 5), T0 - 5);
        add(Topics.JOB_COMMANDS.name(), submit, T0);
        add(Topics.JOB_COMMANDS.name(), submit, T0 + 1);
        add(Topics.SCHEDULER_DECISIONS.name(), ReplayScript.podGroupPhase(NAME, group, 3, "Inqueue", T0 + 2), T0 + 2);
        add(Topics.SCHEDULER_DECISIONS.name(), ReplayScript.podGroupPhase(NAME, group, 2, "Pending", T0 + 3), T0 + 3);
        add(Topics.POD_EVENTS.name(), ReplayScript.pod(NAME, "Running", null, T0 + 4), T0 + 4);
        add(Topics.CLOCK.name(), ReplayScript.tick(T0 + 5), T0 + 5);
        add(Topics.POD_EVENTS.name(), ReplayScript.pod(NAME, "Succeeded", 0, T0 + 6), T0 + 6);

        List<JobReplay.Step> steps = ReplayCommand.replay("default", NAME, 60_000, QueueHistory.none(), inputs);

        assertThat(steps.get(0).note()).startsWith("skipped: the job does not exist");
        assertThat(steps.get(1).transitions()).extracting(JobTransition::getTo).containsExactly("Pending");
        assertThat(steps.get(2).note()).startsWith("a retry");
        assertThat(steps.get(4).note()).startsWith("dropped: epoch older than 3");
        assertThat(steps.get(5).transitions()).extracting(JobTransition::getTo).containsExactly("Running");
        assertThat(steps.get(6).note()).isEqualTo("no timer due");
        List<JobTransition> all = ReplayCommand.transitions(steps);
        assertThat(all.getLast().getTo()).isEqualTo("Completed");
        // Each transition names the input that caused it: the audit trail back to the log.
        JobTransition running = steps.get(5).transitions().getFirst();
        assertThat(running.getSourceTopic()).isEqualTo(Topics.POD_EVENTS.name());
        assertThat(running.getSourcePartition()).isEqualTo(2);
        assertThat(running.getSourceOffset()).isEqualTo(1L);
        assertThat(running.getTime().toEpochMilli()).isEqualTo(T0 + 4);
    }

    @Test
    void aCommandShowsItsSenderAndMessageAndABindItsPodAndNode() {
        JobCommand submit = ReplayScript.submit("r-1", NAME, T0);
        String group = ReplayScript.podGroup(submit);
        add(Topics.JOB_COMMANDS.name(), submit, T0);
        add(
                Topics.SCHEDULER_DECISIONS.name(),
                SchedulerDecision.newBuilder()
                        .setNamespace("default")
                        .setJob(NAME)
                        .setPodGroup(group)
                        .setEpoch(1)
                        .setTime(Instant.ofEpochMilli(T0 + 1))
                        .setDecision(new Bind(NAME + "-main-0", "node-3", "allocate", 0))
                        .build(),
                T0 + 1);
        add(
                Topics.JOB_COMMANDS.name(),
                JobCommand.newBuilder()
                        .setRequestId("r-2")
                        .setSender("ops")
                        .setNamespace("default")
                        .setName(NAME)
                        .setTime(Instant.ofEpochMilli(T0 + 2))
                        .setCommand(new JobActionCommand(JobAction.AbortJob, null, null, "disk full on node-3"))
                        .build(),
                T0 + 2);

        List<JobReplay.Step> steps = ReplayCommand.replay("default", NAME, 60_000, QueueHistory.none(), inputs);

        assertThat(steps.get(0).summary()).isEqualTo("SubmitJob r-1 from test");
        assertThat(steps.get(1).summary())
                .isEqualTo(group + " epoch 1 bind pod replayed-main-0 to node node-3 (allocate)");
        assertThat(steps.get(2).summary()).isEqualTo("AbortJob r-2 from ops \"disk full on node-3\"");
    }

    @Test
    void aLateTickDoesNotMoveTheClockBack() {
        add(Topics.CLOCK.name(), ReplayScript.tick(T0 + 10), T0 + 10);
        add(Topics.CLOCK.name(), ReplayScript.tick(T0 + 5), T0 + 11);

        List<JobReplay.Step> steps = ReplayCommand.replay("default", NAME, 60_000, QueueHistory.none(), inputs);

        assertThat(steps.get(0).note()).isEqualTo("no timer due");
        assertThat(steps.get(1).note()).startsWith("late or repeated");
    }

    @Test
    void aTickKeyedOtherThanItsPartitionIsDeadLetteredAndDoesNotMoveTheClock() {
        inputs.add(new ReplayInput(Topics.CLOCK.name(), 2, 0, T0 + 10, "3", ReplayScript.tick(T0 + 10)));
        inputs.add(new ReplayInput(Topics.CLOCK.name(), 2, 1, T0 + 11, "", ReplayScript.tick(T0 + 11)));
        add(Topics.CLOCK.name(), ReplayScript.tick(T0 + 5), T0 + 12);

        List<JobReplay.Step> steps = ReplayCommand.replay("default", NAME, 60_000, QueueHistory.none(), inputs);

        assertThat(steps.get(0).note()).startsWith("dead-lettered: the key \"3\" is not the number of its partition");
        assertThat(steps.get(1).note()).startsWith("dead-lettered");
        assertThat(steps.get(2).note())
                .as("the clock is where the ticker's ticks put it")
                .isEqualTo("no timer due");
    }

    @Test
    void anUndecodableRecordIsReportedAsDeadLettered() {
        inputs.add(new ReplayInput(Topics.JOB_COMMANDS.name(), 2, 0, T0, KEY, null));

        List<JobReplay.Step> steps = ReplayCommand.replay("default", NAME, 60_000, QueueHistory.none(), inputs);

        assertThat(steps.getFirst().note()).startsWith("dead-lettered");
        assertThat(steps.getFirst().transitions()).isEmpty();
    }
}
