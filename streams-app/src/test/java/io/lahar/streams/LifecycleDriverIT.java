package io.lahar.streams;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.sim.ScriptStep;
import io.lahar.schema.CommandResult;
import io.lahar.schema.DeadLetter;
import io.lahar.schema.DeleteJob;
import io.lahar.schema.DeleteObject;
import io.lahar.schema.EnsureNetworkPolicy;
import io.lahar.schema.EnsurePersistentVolumeClaim;
import io.lahar.schema.JobAction;
import io.lahar.schema.JobCommand;
import io.lahar.schema.JobStatusRecord;
import io.lahar.schema.JobTransition;
import io.lahar.schema.PodEvent;
import io.lahar.schema.PodGroup;
import io.lahar.schema.PodIntent;
import io.lahar.schema.SchedulerDecision;
import io.lahar.schema.Tick;
import io.lahar.schema.Topics;
import io.lahar.schema.serde.RegistrySerdes;
import io.lahar.streams.job.JobStore;
import io.lahar.testkit.LaharInfra;
import io.lahar.testkit.WithLaharInfra;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Properties;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The job lifecycle under TopologyTestDriver (the real registry, no broker): the simulator's
 * instant world answers the topology's intents and pod groups, and the phases the topology
 * publishes must be the ones {@code lahar simulate} gives for the same script.
 */
@WithLaharInfra
class LifecycleDriverIT {

    /** The drivers' state directories, removed after the test. */
    @TempDir
    Path stateDirs;

    private static final long T0 = Instant.parse("2026-11-29T10:00:00Z").toEpochMilli();

    private TopologyTestDriver driver;
    private TestInputTopic<String, JobCommand> commands;
    private TestInputTopic<String, PodEvent> podEvents;
    private TestInputTopic<String, SchedulerDecision> decisions;
    private TestInputTopic<String, Tick> clock;
    private TestInputTopic<String, byte[]> rawPodEvents;
    private TestOutputTopic<String, CommandResult> results;
    private TestOutputTopic<String, JobStatusRecord> status;
    private TestOutputTopic<String, JobTransition> transitions;
    private TestOutputTopic<String, PodIntent> intents;
    private TestOutputTopic<String, PodGroup> podGroups;
    private TestOutputTopic<String, DeadLetter> letters;

    @BeforeEach
    void start(LaharInfra infra) throws Exception {
        RegistrySerdes serdes = new RegistrySerdes(infra.registryUrl());
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "lifecycle-driver-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(
                StreamsConfig.STATE_DIR_CONFIG,
                Files.createTempDirectory(stateDirs, "lifecycle-driver").toString());
        driver = new TopologyTestDriver(LaharTopology.build(serdes), props);
        commands = input(Topics.JOB_COMMANDS, serdes, JobCommand.class);
        podEvents = input(Topics.POD_EVENTS, serdes, PodEvent.class);
        decisions = input(Topics.SCHEDULER_DECISIONS, serdes, SchedulerDecision.class);
        clock = input(Topics.CLOCK, serdes, Tick.class);
        rawPodEvents =
                driver.createInputTopic(Topics.POD_EVENTS.name(), new StringSerializer(), new ByteArraySerializer());
        results = output(Topics.COMMAND_RESULTS, serdes, CommandResult.class);
        status = output(Topics.JOB_STATUS, serdes, JobStatusRecord.class);
        transitions = output(Topics.JOB_TRANSITIONS, serdes, JobTransition.class);
        intents = output(Topics.POD_INTENTS, serdes, PodIntent.class);
        podGroups = output(Topics.POD_GROUPS, serdes, PodGroup.class);
        letters = output(Topics.DEAD_LETTERS, serdes, DeadLetter.class);
    }

    @AfterEach
    void stop() {
        driver.close();
    }

    private <T extends SpecificRecord> TestInputTopic<String, T> input(
            Topics.TopicSpec topic, RegistrySerdes serdes, Class<T> type) {
        return driver.createInputTopic(
                topic.name(), new StringSerializer(), serdes.value(type).serializer());
    }

    private <T extends SpecificRecord> TestOutputTopic<String, T> output(
            Topics.TopicSpec topic, RegistrySerdes serdes, Class<T> type) {
        return driver.createOutputTopic(
                topic.name(), new StringDeserializer(), serdes.value(type).deserializer());
    }

    private DriverWorld submit(String name, String manifest) {
        commands.pipeInput("default/" + name, LifecycleScript.submit("submit-" + name, name, manifest, T0));
        assertThat(results.readValuesToList())
                .singleElement()
                .satisfies(r ->
                        assertThat(r.getAccepted()).as("%s", r.getViolations()).isTrue());
        DriverWorld world = new DriverWorld(name, T0, podEvents, decisions, intents, podGroups);
        world.settle();
        return world;
    }

    private static void play(DriverWorld world, String script) {
        for (ScriptStep step : LifecycleScript.steps(script)) {
            world.run(step);
        }
    }

    @Test
    void aFailingWorkerRestartsTheJobUntilMaxRetryThenItFailsAsTheSimulatorSays() {
        String manifest = LifecycleScript.tfJob("tf-restart");
        DriverWorld world = submit("tf-restart", manifest);
        play(world, LifecycleScript.RESTART_UNTIL_FAILED);

        List<JobTransition> log = transitions.readValuesToList();
        assertThat(log)
                .extracting(JobTransition::getTo)
                .containsExactlyElementsOf(
                        LifecycleScript.simulatedPhases(manifest, LifecycleScript.RESTART_UNTIL_FAILED))
                .containsExactly("Pending", "Running", "Restarting", "Pending", "Running", "Restarting", "Failed");
        JobTransition restart = log.get(2);
        assertThat(restart.getEvent()).isEqualTo("PodFailed");
        assertThat(restart.getAction()).isEqualTo("RestartJob");
        assertThat(restart.getPolicy()).isEqualTo("spec.policies[0]");
        assertThat(restart.getSourceTopic()).isEqualTo(Topics.POD_EVENTS.name());
        assertThat(restart.getSourceOffset()).isGreaterThanOrEqualTo(0);
        assertThat(log.get(0).getSourceTopic()).isEqualTo(Topics.JOB_COMMANDS.name());

        List<JobStatusRecord> statuses = status.readValuesToList();
        JobStatusRecord last = statuses.getLast();
        assertThat(last.getStatus().getState().getPhase()).isEqualTo("Failed");
        assertThat(last.getStatus().getRetryCount()).isEqualTo(2);
        assertThat(statuses).extracting(s -> s.getStatus().getVersion()).contains(0, 1, 2);

        // A finished job's phase is final: a restart command is answered rejected, with the reason.
        commands.pipeInput(
                "default/tf-restart", LifecycleScript.act("again", "tf-restart", JobAction.RestartJob, T0 + 60_000));
        assertThat(results.readValuesToList()).singleElement().satisfies(r -> {
            assertThat(r.getAccepted()).isFalse();
            assertThat(r.getViolations())
                    .extracting(v -> v.getPath() + ": " + v.getMessage())
                    .containsExactly("command.action: job is Failed, a final phase: RestartJob cannot change it");
        });
        assertThat(transitions.readValuesToList()).isEmpty();
        assertThat(intents.readValuesToList()).isEmpty();
    }

    @Test
    void aJobWhosePodsAllSucceedCompletesAsTheSimulatorSays() {
        String manifest = LifecycleScript.tfJob("tf-done");
        DriverWorld world = submit("tf-done", manifest);
        play(world, LifecycleScript.RUN_TO_COMPLETION);

        assertThat(transitions.readValuesToList())
                .extracting(JobTransition::getTo)
                .containsExactlyElementsOf(LifecycleScript.simulatedPhases(manifest, LifecycleScript.RUN_TO_COMPLETION))
                .containsExactly("Pending", "Running", "Completed");
        assertThat(status.readValuesToList().getLast().getStatus()).satisfies(s -> {
            assertThat(s.getState().getPhase()).isEqualTo("Completed");
            assertThat(s.getSucceeded()).isEqualTo(3);
            assertThat(s.getRunningDuration()).isNotNull();
        });
    }

    /**
     * A job of more pods than an entry keeps (its pods in buckets of the job-pods store): a worker
     * fails, the job restarts, runs again and completes, with the simulator's phases and counts.
     * (Few pods run before they succeed: each record costs TopologyTestDriver a commit.)
     */
    @Test
    void aJobOfHundredsOfPodsRestartsAndCompletesAsTheSimulatorSays() {
        int workers = 257;
        String manifest = LifecycleScript.tfJob("tf-big").replace("replicas: 2", "replicas: " + workers);
        String ps = "{\"pod\":{\"task\":\"ps\",\"index\":0,\"phase\":\"%s\"%s}}\n";
        String worker = "{\"pod\":{\"task\":\"worker\",\"index\":%d,\"phase\":\"%s\"%s}}\n";
        String running =
                ps.formatted("Running", "") + worker.formatted(0, "Running", "") + worker.formatted(1, "Running", "");
        StringBuilder script = new StringBuilder(running)
                .append(worker.formatted(200, "Failed", ",\"exitCode\":1"))
                .append(running);
        script.append(ps.formatted("Succeeded", ",\"exitCode\":0"));
        for (int i = 0; i < workers; i++) {
            script.append(worker.formatted(i, "Succeeded", ",\"exitCode\":0"));
        }
        DriverWorld world = submit("tf-big", manifest);
        play(world, script.toString());

        assertThat(transitions.readValuesToList())
                .extracting(JobTransition::getTo)
                .containsExactlyElementsOf(LifecycleScript.simulatedPhases(manifest, script.toString()))
                .containsExactly("Pending", "Running", "Restarting", "Pending", "Running", "Completed");
        assertThat(status.readValuesToList().getLast().getStatus()).satisfies(s -> {
            assertThat(s.getState().getPhase()).isEqualTo("Completed");
            assertThat(s.getSucceeded()).isEqualTo(workers + 1);
            assertThat(s.getVersion()).isEqualTo(1);
        });
        KeyValueStore<String, byte[]> buckets = driver.getKeyValueStore(JobStore.PODS);
        List<String> keys = new java.util.ArrayList<>();
        try (KeyValueIterator<String, byte[]> it = buckets.prefixScan("default/tf-big/", new StringSerializer())) {
            it.forEachRemaining(kv -> keys.add(kv.key));
        }
        assertThat(keys)
                .containsExactlyInAnyOrder(
                        "default/tf-big/ps/0",
                        "default/tf-big/worker/0",
                        "default/tf-big/worker/1",
                        "default/tf-big/worker/2",
                        "default/tf-big/worker/3",
                        "default/tf-big/worker/4");
    }

    /** Issue 36: what the engine once logged at WARN and dropped now reaches lahar.pod-intents. */
    @Test
    void theSvcPluginsNetworkPolicyAndTheClaimOfAnInlineVolumeAreSentAndTheClaimGoesWithTheJob() {
        String manifest = LifecycleScript.tfJob("tf-data").replace("  tasks:\n", """
                          plugins: {svc: []}
                          volumes:
                          - mountPath: /data
                            volumeClaim: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
                          tasks:
                        """);
        commands.pipeInput("default/tf-data", LifecycleScript.submit("s", "tf-data", manifest, T0));
        assertThat(results.readValuesToList())
                .singleElement()
                .satisfies(r ->
                        assertThat(r.getAccepted()).as("%s", r.getViolations()).isTrue());

        List<Object> sent =
                intents.readValuesToList().stream().map(PodIntent::getIntent).toList();
        assertThat(sent)
                .anySatisfy(i -> assertThat(i).isInstanceOfSatisfying(EnsureNetworkPolicy.class, np -> {
                    assertThat(np.getName()).isEqualTo("tf-data");
                    assertThat(np.getPodSelector()).containsEntry("volcano.sh/job-name", "tf-data");
                }));
        assertThat(sent)
                .anySatisfy(i -> assertThat(i).isInstanceOfSatisfying(EnsurePersistentVolumeClaim.class, c -> {
                    assertThat(c.getName()).isEqualTo("tf-data-volume-0");
                    assertThat(c.getSpec()).contains("\"storage\":\"1Gi\"");
                }));

        commands.pipeInput(
                "default/tf-data",
                JobCommand.newBuilder()
                        .setRequestId("d")
                        .setSender("test")
                        .setNamespace("default")
                        .setName("tf-data")
                        .setTime(Instant.ofEpochMilli(T0 + 1_000))
                        .setCommand(new DeleteJob("done"))
                        .build());
        assertThat(intents.readValuesToList())
                .extracting(PodIntent::getIntent)
                .filteredOn(DeleteObject.class::isInstance)
                .extracting(o -> ((DeleteObject) o).getKind() + " " + ((DeleteObject) o).getName())
                .contains("NetworkPolicy tf-data", "PersistentVolumeClaim tf-data-volume-0");
    }

    @Test
    void theSchedulersPhaseIsPublishedOnThePodGroupAndPodsWaitForInqueue() {
        commands.pipeInput(
                "default/tf-gang", LifecycleScript.submit("s", "tf-gang", LifecycleScript.tfJob("tf-gang"), T0));
        PodGroup group = podGroups.readValuesToList().getLast();
        assertThat(group.getStatus().getPhase()).isEqualTo("Pending");
        assertThat(group.getSpec().getMinMember()).isEqualTo(3);
        assertThat(intents.readValuesToList()).noneMatch(i -> i.getIntent() instanceof io.lahar.schema.CreatePod);

        // An older epoch's decision is dropped; a decision about another pod group is skipped.
        decisions.pipeInput(
                "default/tf-gang",
                withEpoch(LifecycleScript.podGroupPhase("tf-gang", group.getName(), "Inqueue", T0 + 1), 5));
        List<PodIntent> created = intents.readValuesToList();
        assertThat(created)
                .filteredOn(i -> i.getIntent() instanceof io.lahar.schema.CreatePod)
                .hasSize(3);
        assertThat(podGroups.readValuesToList())
                .singleElement()
                .satisfies(g -> assertThat(g.getStatus().getPhase()).isEqualTo("Inqueue"));
        decisions.pipeInput(
                "default/tf-gang",
                withEpoch(LifecycleScript.podGroupPhase("tf-gang", group.getName(), "Pending", T0 + 2), 4));
        decisions.pipeInput(
                "default/tf-gang", LifecycleScript.podGroupPhase("tf-gang", "someone-else", "Pending", T0 + 3));
        assertThat(podGroups.readValuesToList()).isEmpty();
        assertThat(transitions.readValuesToList())
                .extracting(JobTransition::getTo)
                .containsExactly("Pending");

        // Same phase, new reasons: the pod group record carries the scheduler's conditions.
        SchedulerDecision why = LifecycleScript.podGroupPhase("tf-gang", group.getName(), "Inqueue", T0 + 4);
        ((io.lahar.schema.PodGroupStatus) why.getDecision())
                .setConditions(List.of(io.lahar.schema.PodGroupCondition.newBuilder()
                        .setType("Unschedulable")
                        .setStatus("True")
                        .setLastTransitionTime(Instant.ofEpochMilli(T0 + 4))
                        .setReason("NotEnoughResources")
                        .setMessage("0/2 nodes are available")
                        .build()));
        decisions.pipeInput("default/tf-gang", withEpoch(why, 5));
        assertThat(podGroups.readValuesToList()).singleElement().satisfies(g -> {
            assertThat(g.getStatus().getPhase()).isEqualTo("Inqueue");
            assertThat(g.getStatus().getConditions())
                    .singleElement()
                    .satisfies(c -> assertThat(c.getReason()).isEqualTo("NotEnoughResources"));
            assertThat(g.getTime()).isEqualTo(Instant.ofEpochMilli(T0 + 4));
        });
    }

    /**
     * The scheduler may decide about the job's pod group after the job restarted, before it sees the
     * group deleted: that decision is about the group of the earlier job version and must not admit
     * the group created again, whose pods wait for the Inqueue of their own group.
     */
    @Test
    void aDecisionAboutThePodGroupOfAnEarlierJobVersionDoesNotAdmitTheNewGroup() {
        String key = "default/tf-again";
        commands.pipeInput(key, LifecycleScript.submit("s", "tf-again", LifecycleScript.tfJob("tf-again"), T0));
        PodGroup group = podGroups.readValuesToList().getLast();
        assertThat(group.getJobVersion()).isZero();
        decisions.pipeInput(
                key, withVersion(LifecycleScript.podGroupPhase("tf-again", group.getName(), "Inqueue", T0 + 1), 0));
        List<io.lahar.schema.CreatePod> first = creates(intents.readValuesToList());
        assertThat(first).hasSize(3);

        commands.pipeInput(key, LifecycleScript.act("again", "tf-again", JobAction.RestartJob, T0 + 2));
        for (io.lahar.schema.CreatePod c : first) {
            podEvents.pipeInput(
                    key,
                    LifecycleScript.podEvent("tf-again", c.getTask(), c.getIndex(), 0, "Pending", null, true, T0 + 3));
        }
        PodGroup again = podGroups.readValuesToList().getLast();
        assertThat(again.getJobVersion()).isEqualTo(1);
        assertThat(again.getStatus().getPhase()).isEqualTo("Pending");
        assertThat(creates(intents.readValuesToList())).isEmpty();

        decisions.pipeInput(
                key, withVersion(LifecycleScript.podGroupPhase("tf-again", group.getName(), "Running", T0 + 4), 0));
        assertThat(creates(intents.readValuesToList())).isEmpty();
        assertThat(podGroups.readValuesToList()).isEmpty();

        decisions.pipeInput(
                key, withVersion(LifecycleScript.podGroupPhase("tf-again", group.getName(), "Inqueue", T0 + 5), 1));
        assertThat(creates(intents.readValuesToList()))
                .hasSize(3)
                .allSatisfy(c -> assertThat(c.getJobVersion()).isEqualTo(1));
        assertThat(podGroups.readValuesToList())
                .singleElement()
                .satisfies(g -> assertThat(g.getStatus().getPhase()).isEqualTo("Inqueue"));
    }

    private static SchedulerDecision withVersion(SchedulerDecision d, int podGroupVersion) {
        d.setPodGroupVersion(podGroupVersion);
        return d;
    }

    private static List<io.lahar.schema.CreatePod> creates(List<PodIntent> intents) {
        return intents.stream()
                .filter(i -> i.getIntent() instanceof io.lahar.schema.CreatePod)
                .map(i -> (io.lahar.schema.CreatePod) i.getIntent())
                .toList();
    }

    private static SchedulerDecision withEpoch(SchedulerDecision d, long epoch) {
        d.setEpoch(epoch);
        return d;
    }

    @Test
    void aClockTickDeletesAFinishedJobWhenItsTtlExpires() {
        String manifest = LifecycleScript.tfJob("tf-ttl")
                .replace("  maxRetry: 2\n", "  maxRetry: 2\n  ttlSecondsAfterFinished: 30\n");
        DriverWorld world = submit("tf-ttl", manifest);
        play(world, LifecycleScript.RUN_TO_COMPLETION);
        status.readValuesToList();
        long finished = world.time();

        clock.pipeInput("0", new Tick(Instant.ofEpochMilli(finished + 29_000)));
        assertThat(status.readKeyValuesToList()).isEmpty();
        clock.pipeInput("0", new Tick(Instant.ofEpochMilli(finished + 31_000)));
        List<KeyValue<String, JobStatusRecord>> gone = status.readKeyValuesToList();
        assertThat(gone).singleElement().satisfies(kv -> {
            assertThat(kv.key).isEqualTo("default/tf-ttl");
            assertThat(kv.value).as("a tombstone").isNull();
        });
        // Deleted: a new submit of the same name is a new job.
        commands.pipeInput("default/tf-ttl", LifecycleScript.submit("again", "tf-ttl", manifest, finished + 40_000));
        assertThat(results.readValuesToList())
                .singleElement()
                .satisfies(r -> assertThat(r.getAccepted()).isTrue());
    }

    @Test
    void afterAJumpInTimeDeadlinesExpireOverTheFollowingTicksNotAtOnce() {
        String manifest = LifecycleScript.tfJob("tf-jump")
                .replace("  maxRetry: 2\n", "  maxRetry: 2\n  ttlSecondsAfterFinished: 150\n");
        DriverWorld world = submit("tf-jump", manifest);
        play(world, LifecycleScript.RUN_TO_COMPLETION);
        status.readValuesToList();
        long finished = world.time();
        clock.pipeInput("0", new Tick(Instant.ofEpochMilli(finished + 1_000)));
        // An hour passes without a tick: the timers' clock catches up one minute per tick.
        Instant later = Instant.ofEpochMilli(finished + 3_600_000);
        clock.pipeInput("0", new Tick(later));
        clock.pipeInput("0", new Tick(later.plusSeconds(1)));
        assertThat(status.readKeyValuesToList())
                .as("TTL due at +150 s, the clock is at +121 s")
                .isEmpty();
        clock.pipeInput("0", new Tick(later.plusSeconds(2)));
        assertThat(status.readKeyValuesToList())
                .singleElement()
                .satisfies(kv -> assertThat(kv.value).isNull());
        // A tick from the past changes nothing.
        clock.pipeInput("0", new Tick(Instant.ofEpochMilli(finished)));
        assertThat(transitions.readValuesToList())
                .extracting(JobTransition::getTo)
                .endsWith("Completed");
    }

    @Test
    void undecodableAndMisKeyedInputsAreDeadLetteredAndProcessingGoesOn() {
        rawPodEvents.pipeInput("default/x", "not avro".getBytes(StandardCharsets.UTF_8));
        podEvents.pipeInput("default/other", LifecycleScript.podEvent("x", "w", 0, 0, "Running", null, false, T0));
        commands.pipeInput("default/after", LifecycleScript.submit("a", "after", LifecycleScript.tfJob("after"), T0));
        assertThat(letters.readValuesToList())
                .hasSize(2)
                .allSatisfy(d -> assertThat(d.getTopic()).isEqualTo(Topics.POD_EVENTS.name()))
                .anySatisfy(d -> assertThat(d.getError()).contains("does not match"));
        assertThat(results.readValuesToList())
                .singleElement()
                .satisfies(r -> assertThat(r.getAccepted()).isTrue());
    }
}
